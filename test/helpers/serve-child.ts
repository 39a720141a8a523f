import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import * as assert from 'uvu/assert'

// `reelforge serve` as a real child process: for end-to-end and kill -9 tests.
export const root = new URL('../..', import.meta.url).pathname

/**
 * A repository module as the suite runs it: its compiled `.js` twin where the suite runs from the compiled tree
 * (scripts/compile-tests.mjs), else the `.ts` itself, which tsx loads. For plugin modules handed to the service.
 */
export function runnable(path: string): string {
  const js = path.replace(/\.ts$/, '.js')
  return js !== path && existsSync(js) ? js : path
}

/** tsx's loader as a `node --import` value that resolves from any working folder. */
export const tsxLoader = pathToFileURL(join(root, 'node_modules/tsx/dist/loader.mjs')).href

/**
 * `node` arguments that run a repository script as one process — compiled, or through tsx's loader from the sources
 * (not the tsx CLI, which would run the script as a grandchild that SIGKILL would miss).
 */
export function scriptArgs(path: string): string[] {
  const file = resolve(root, path)
  const run = runnable(file)
  return run !== file ? [run] : ['--import', tsxLoader, file]
}

/** `node` arguments for `reelforge <args>`. */
export const cliArgs = (...args: string[]) => scriptArgs('adapters/cli/main.ts').concat(args)

export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port
      s.close(() => resolve(port))
    })
  })

/**
 * Starts a `reelforge` command as a child process and waits until its output matches `ready`; `log()` is
 * everything it printed so far.
 */
export async function startCli(
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
  timeoutMs: number,
): Promise<{ child: ChildProcess; log: () => string }> {
  // One process (not the tsx CLI, which would run the command as a grandchild that SIGKILL would miss).
  const child = spawn(process.execPath, cliArgs(...args), {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let log = ''
  child.stdout!.on('data', (d) => (log += d))
  child.stderr!.on('data', (d) => (log += d))
  for (let i = 0; i < timeoutMs / 50 && !ready.test(log); i++) {
    if (child.exitCode !== null) throw new Error(`reelforge ${args[0]} exited: ${log}`)
    await new Promise((r) => setTimeout(r, 50))
  }
  assert.match(log, ready)
  return { child, log: () => log }
}

/** Starts `reelforge serve` as a child process and waits until it listens. */
export async function serve(data: string, port: number, env: Record<string, string> = {}, args: string[] = []): Promise<ChildProcess> {
  const { child } = await startCli(
    ['serve', '--port', String(port), '--data', data, ...args],
    { REELFORGE_LEASE_MS: '1500', ...env },
    /listening on http:\/\/127\.0\.0\.1:\d+/,
    10_000,
  )
  return child
}
/** Signals a child and waits for its exit (at once when it already ended, by exit code or by signal). */
export const stop = (child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM') =>
  new Promise<void>((r) => (child.exitCode !== null || child.signalCode !== null ? r() : (child.once('exit', () => r()), child.kill(signal))))

export async function api(port: number, key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: res.status, body: (await res.json()) as any }
}
export async function waitStatus(port: number, key: string, id: string, statuses: string[], timeoutMs = 90_000) {
  for (const until = Date.now() + timeoutMs; Date.now() < until; await new Promise((r) => setTimeout(r, 100))) {
    const s = await api(port, key, 'GET', `/v1/render/${id}`).catch(() => undefined)
    if (s && statuses.includes(s.body.status)) return s.body
  }
  throw new Error(`job ${id} never reached ${statuses}`)
}
/** A live key from the CLI, funded with the CLI (live renders need prepaid credits). */
export const createKey = (data: string, credits = 500) => {
  const r = spawnSync(process.execPath, cliArgs('keys', 'create', '--data', data), { cwd: root, encoding: 'utf8' })
  assert.is(r.status, 0, r.stderr)
  const key = r.stdout.trim()
  const w = spawnSync(process.execPath, cliArgs('wallet', 'deposit', String(credits), '--key', key, '--data', data), { cwd: root, encoding: 'utf8' })
  assert.is(w.status, 0, w.stderr)
  assert.is(JSON.parse(w.stdout).balance, credits)
  return key
}
