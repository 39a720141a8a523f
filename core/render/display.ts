import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { RenderError } from '../errors.js'
import { removeSocket } from '../ffmpeg/remove-socket.js'

/**
 * headless-gl needs an X server on Linux (it returns a null context without one). When the process has
 * no DISPLAY, reelforge starts its own Xvfb on a free display number, reuses it for the life of the
 * process and stops it on exit, so users never configure anything.
 */

let owned: { display: string; child: ChildProcess; server?: number } | undefined

// Xvfb under a watchdog shell: it stops the server when this process dies, even by SIGKILL, without
// reelforge installing signal handlers that would fight the host application's own.
const WATCHDOG = `command -v Xvfb >/dev/null 2>&1 || exit 127
Xvfb "$2" -screen 0 64x64x24 -nolisten tcp -noreset & x=$!
trap 'kill $x 2>/dev/null; exit 0' TERM INT
while kill -0 "$1" 2>/dev/null && kill -0 $x 2>/dev/null; do sleep 1; done
kill $x 2>/dev/null; wait $x 2>/dev/null`
let starting: Promise<string> | undefined

/** The X display in use, starting a private Xvfb when needed. Safe to call concurrently. */
export function ensureDisplay(): Promise<string> {
  if (owned && owned.child.exitCode === null && !owned.child.killed) return Promise.resolve(owned.display)
  starting ??= startXvfb().finally(() => (starting = undefined))
  return starting
}

/**
 * True when the X server this process started has gone. GL contexts made on it may still draw (llvmpipe),
 * but Xlib ends the process at its next request to the dead server: a long-lived process should retire.
 */
export function displayLost(): boolean {
  if (!owned) return false
  if (owned.child.exitCode !== null || owned.child.signalCode !== null) return true
  // The watchdog notices a dead server only at its next poll (a second): ask the kernel about Xvfb itself, or a
  // render finishing in that second would leave this process to take the next one and die in it.
  return owned.server !== undefined && !alive(owned.server)
}

/** True when this process started (and will stop) the X server it draws on. */
export function ownsDisplay(): boolean {
  return owned !== undefined
}

/** True when `display` (`:N`) is a local Xvfb: the process its lock file names is one (another's, or ours). */
export function servedByXvfb(display: string): boolean {
  const n = /^:(\d+)(?:\.\d+)?$/.exec(display)?.[1]
  const pid = n === undefined ? undefined : lockPid(Number(n))
  if (pid === undefined) return false
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'Xvfb'
  } catch {
    return false
  }
}

async function startXvfb(): Promise<string> {
  for (let n = 90 + (process.pid % 400); n < 1000; n++) {
    // A lock file or socket means another server holds this number — unless its server is dead.
    if (!reclaimIfStale(n)) continue
    const display = `:${n}`
    const child = spawn('sh', ['-c', WATCHDOG, 'reelforge-xvfb', String(process.pid), display], { stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)))
    const ready = await waitForSocket(n, child)
    if (ready === 'missing') {
      throw new RenderError('E_GL_UNAVAILABLE', 'no X display and Xvfb is not installed; install it (apt-get install xvfb) or set DISPLAY')
    }
    if (ready === 'up') {
      child.unref()
      ;(child.stderr as unknown as { unref?: () => void }).unref?.()
      owned = { display, child, server: lockPid(n) }
      process.env.DISPLAY = display
      registerCleanup()
      return display
    }
    // The server died (number taken in a race, or a real failure): try the next number, keep the reason.
    if (!/already active|server is already/i.test(stderr)) {
      throw new RenderError('E_GL_UNAVAILABLE', `Xvfb ${display} failed to start: ${stderr.trim().slice(-300) || 'no output'}`)
    }
  }
  throw new RenderError('E_GL_UNAVAILABLE', 'no free X display number for Xvfb')
}

/**
 * True when display number n is free. A lock whose pid is dead is a leftover of an Xvfb killed by SIGKILL (a
 * cancelled render's process group, a kill -9): it and its socket are removed, as X servers themselves do, or
 * such leftovers would use up every number on a long-running host.
 */
function reclaimIfStale(n: number): boolean {
  const lock = `/tmp/.X${n}-lock`
  const socket = `/tmp/.X11-unix/X${n}`
  if (!existsSync(lock)) return !existsSync(socket)
  const pid = lockPid(n)
  if (pid === undefined || alive(pid)) return false
  if (!removeSocket(socket)) return false // another user's leftovers: not ours to remove
  try {
    rmSync(lock, { force: true })
  } catch {
    return false
  }
  return true
}

/** The pid an X server wrote into display `n`'s lock file, if there is one. */
function lockPid(n: number): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(`/tmp/.X${n}-lock`, 'utf8'), 10)
    return pid > 0 ? pid : undefined
  } catch {
    return undefined
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
  // A zombie (killed, not yet reaped by the watchdog) answers signal 0 but serves nothing.
  try {
    return !/^\d+ \(.*\) [ZX] /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return true
  }
}

function waitForSocket(n: number, child: ChildProcess): Promise<'up' | 'died' | 'missing'> {
  return new Promise((resolve) => {
    let done = false
    const finish = (r: 'up' | 'died' | 'missing') => {
      if (done) return
      done = true
      clearInterval(timer)
      resolve(r)
    }
    child.once('error', (e: NodeJS.ErrnoException) => finish(e.code === 'ENOENT' ? 'missing' : 'died'))
    child.once('exit', (code) => finish(code === 127 ? 'missing' : 'died'))
    const started = Date.now()
    const timer = setInterval(() => {
      if (existsSync(`/tmp/.X11-unix/X${n}`)) finish('up')
      else if (Date.now() - started > 10_000) {
        child.kill('SIGKILL')
        finish('died')
      }
    }, 20)
  })
}

let cleanupRegistered = false
function registerCleanup() {
  if (cleanupRegistered) return
  cleanupRegistered = true
  // On a normal exit stop at once; on a fatal signal the watchdog notices within a second.
  process.once('exit', () => {
    if (owned && owned.child.exitCode === null) owned.child.kill('SIGTERM')
  })
}

/** Stops the private Xvfb now (tests use it to simulate a dying display). */
export function stopDisplay(): void {
  if (!owned) return
  owned.child.kill('SIGTERM') // the watchdog's trap stops Xvfb
  if (process.env.DISPLAY === owned.display) delete process.env.DISPLAY
  owned = undefined
}
