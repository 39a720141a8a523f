import { Worker } from 'node:worker_threads'

// A render process must not outlive the service that started it. Its main thread may be stuck for minutes in one
// synchronous step (laying out a huge text) and would never see the IPC channel close, so a thread of its own
// watches the parent and, once it is gone (killed with -9, crashed), kills the whole process group: this
// process, its ffmpegs and its Xvfb.
const WATCH = `
const { workerData } = require('node:worker_threads')
const gone = () => {
  if (process.ppid !== workerData.ppid) return true
  try { process.kill(workerData.ppid, 0); return false } catch (e) { return e.code === 'ESRCH' }
}
setInterval(() => { if (gone()) try { process.kill(-workerData.pgid, 'SIGKILL') } catch { process.kill(workerData.pgid, 'SIGKILL') } }, 250)
`

/** Starts the watching thread (it never keeps the process alive by itself). */
export function watchParent(): void {
  const thread = new Worker(WATCH, { eval: true, workerData: { ppid: process.ppid, pgid: process.pid } })
  thread.unref()
}
