import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import Database from 'better-sqlite3'
import { probe } from '../../adapters/index.js'
import { tempDir } from '../helpers/media.js'

const root = new URL('../..', import.meta.url).pathname
const tsx = join(root, 'node_modules/.bin/tsx')

const freePort = () => new Promise<number>((resolve) => {
  const s = createServer().listen(0, '127.0.0.1', () => {
    const port = (s.address() as { port: number }).port
    s.close(() => resolve(port))
  })
})

/** Starts `reelforge serve` as a child process and waits until it listens. */
async function serve(data: string, port: number): Promise<ChildProcess> {
  // One process (not the tsx CLI, which would run the server as a grandchild that SIGKILL would miss).
  const child = spawn(process.execPath, ['--import', 'tsx', 'adapters/cli/main.ts', 'serve', '--port', String(port), '--data', data], { cwd: root, env: { ...process.env, REELFORGE_LEASE_MS: '1500' }, stdio: ['ignore', 'pipe', 'pipe'] })
  let log = ''
  child.stdout!.on('data', (d) => (log += d))
  child.stderr!.on('data', (d) => (log += d))
  for (let i = 0; i < 200 && !/listening on/.test(log); i++) {
    if (child.exitCode !== null) throw new Error(`serve exited: ${log}`)
    await new Promise((r) => setTimeout(r, 50))
  }
  assert.match(log, /listening on http:\/\/127\.0\.0\.1:\d+/)
  return child
}
const stop = (child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM') => new Promise<void>((r) => (child.exitCode !== null ? r() : (child.once('exit', () => r()), child.kill(signal))))

async function api(port: number, key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })
  return { status: res.status, body: (await res.json()) as any }
}
async function waitStatus(port: number, key: string, id: string, statuses: string[], timeoutMs = 90_000) {
  for (const until = Date.now() + timeoutMs; Date.now() < until; await new Promise((r) => setTimeout(r, 100))) {
    const s = await api(port, key, 'GET', `/v1/render/${id}`).catch(() => undefined)
    if (s && statuses.includes(s.body.status)) return s.body
  }
  throw new Error(`job ${id} never reached ${statuses}`)
}
/** A live key from the CLI, funded with the CLI (live renders need prepaid credits). */
const createKey = (data: string) => {
  const r = spawnSync(tsx, ['adapters/cli/main.ts', 'keys', 'create', '--data', data], { cwd: root, encoding: 'utf8' })
  assert.is(r.status, 0, r.stderr)
  const key = r.stdout.trim()
  const w = spawnSync(tsx, ['adapters/cli/main.ts', 'wallet', 'deposit', '500', '--key', key, '--data', data], { cwd: root, encoding: 'utf8' })
  assert.is(w.status, 0, w.stderr)
  assert.is(JSON.parse(w.stdout).balance, 500)
  return key
}

const e2e = suite('reelforge serve (a real socket, a child process)')
e2e('key from the CLI, submit, poll until COMPLETE, download, ffprobe', async () => {
  const data = tempDir('reelforge-e2e-')
  const key = createKey(data)
  assert.match(key, /^rf_live_[A-Za-z0-9]{40}$/)
  const port = await freePort()
  const server = await serve(data, port)
  try {
    const q = await api(port, key, 'POST', '/v1/render', { timeline: { tracks: [{ clips: [{ asset: { type: 'title', text: 'e2e' }, start: 0, length: 2 }] }] }, output: { format: 'mp4', size: { width: 320, height: 180 }, fps: 25 } })
    assert.is(q.status, 201)
    const done = await waitStatus(port, key, q.body.jobId, ['COMPLETE', 'FAILED'])
    assert.is(done.status, 'COMPLETE', done.error)
    assert.match(done.url, new RegExp(`^http://127\\.0\\.0\\.1:${port}/v1/files/`))
    const file = join(data, 'download.mp4')
    writeFileSync(file, Buffer.from(await (await fetch(done.url)).arrayBuffer()))
    const v = (await probe(file, { countFrames: true })).streams[0]!
    assert.equal([v.codec, v.width, v.height, v.frames], ['h264', 320, 180, 50])
  } finally {
    await stop(server)
  }
})
e2e('kill -9 during a render: after a restart the job completes, exactly once', async () => {
  const data = tempDir('reelforge-crash-')
  const key = createKey(data)
  const port = await freePort()
  let server = await serve(data, port)
  const long = { timeline: { tracks: [{ clips: [{ asset: { type: 'title', text: 'crash test' }, start: 0, length: 8, transition: { in: 'fade', out: 'fade' } }] }] }, output: { format: 'mp4', size: { width: 640, height: 360 }, fps: 25 } }
  const q = await api(port, key, 'POST', '/v1/render', long)
  await waitStatus(port, key, q.body.jobId, ['PROCESSING'])
  await new Promise((r) => setTimeout(r, 300))
  await stop(server, 'SIGKILL')
  server = await serve(data, port)
  try {
    const done = await waitStatus(port, key, q.body.jobId, ['COMPLETE', 'FAILED'])
    assert.is(done.status, 'COMPLETE', done.error)
    const db = new Database(join(data, 'reelforge.db'), { readonly: true })
    const row = db.prepare('SELECT attempts, completed_at FROM jobs WHERE id = ?').get(q.body.jobId) as { attempts: number; completed_at: string }
    db.close()
    assert.is(row.attempts, 2, 'one interrupted attempt, one that completed')
    const file = join(data, 'files', q.body.jobId, `${q.body.jobId}.mp4`)
    assert.is((await probe(file, { countFrames: true })).streams[0]!.frames, 200)
  } finally {
    await stop(server)
  }
})
e2e.run()
