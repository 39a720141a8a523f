import { checkDatabase } from '../../service/db/db-check.js'
import { bounded } from '../../service/health/readiness.js'
import { pingRedis, redisUrlProblem } from '../../service/queue/redis-check.js'
import type { Storage } from '../../service/storage/storage.js'
import { redact } from '../../service/lib/redact.js'

/**
 * How `serve` and `worker` refuse to start: one line, `reelforge <command>: <why>`, and the exit code — 64
 * for options that cannot work, 1 for a dependency that does not answer or a port in use. It exits at once:
 * connections already opened must not keep a process alive that will never serve.
 */
export function refuse(command: string, why: string, code: 1 | 64): never {
  console.error(`reelforge ${command}: ${why}`)
  process.exit(code)
}

/** The Redis URL from `--redis` or `REELFORGE_REDIS_URL` (empty is unset), refused when it cannot be one. */
export function redisUrlOption(command: string, flag: string | undefined): string | undefined {
  const [url, name] = flag !== undefined ? [flag, '--redis'] : [process.env.REELFORGE_REDIS_URL || undefined, 'REELFORGE_REDIS_URL']
  const problem = url === undefined ? undefined : redisUrlProblem(url)
  if (problem) refuse(command, `${name} ${problem}`, 64)
  return url
}

/** A whole number from a flag or the environment (empty is unset), in `[min, max]`; refused otherwise. */
export function countOption(command: string, name: string, value: string | undefined, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined || value.trim() === '') return fallback
  const n = Number(value)
  if (!Number.isInteger(n) || n < min || n > max)
    refuse(command, `${name} must be a whole number from ${min}${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : ' up'}, not ${JSON.stringify(value)}`, 64)
  return n
}

/** What a process needs, each with why it does not answer (undefined: it answers), in this order. */
export interface Dependencies {
  database?: string
  redisUrl?: string
  storage: Storage
}

/** Asks every dependency at once, each bounded by `timeoutMs`; the answers come back in the order above. */
export async function dependencyProblems(d: Dependencies, timeoutMs = 10_000): Promise<{ name: string; problem?: string }[]> {
  const checks: [string, (signal: AbortSignal) => Promise<void>][] = []
  if (d.database !== undefined) checks.push(['database', () => checkDatabase(d.database!, timeoutMs)])
  if (d.redisUrl) checks.push(['redis', () => pingRedis(d.redisUrl!, timeoutMs)])
  checks.push(['storage', (signal) => d.storage.check(signal)])
  const problems = await Promise.all(
    checks.map(([, check]) =>
      bounded(check, timeoutMs).then(
        () => undefined,
        (e: Error) => e.message,
      ),
    ),
  )
  return checks.map(([name], i) => ({ name, problem: problems[i] }))
}

/** A dependency's problem as the one line says it. */
export const problemLine = (name: string, problem: string, d: Dependencies) =>
  name === 'redis' ? `Redis at ${redact(d.redisUrl!)} does not answer (${problem})` : `${name}: ${problem}`

/**
 * What a process needs before it takes work, checked at once: the database (when it has one), Redis (when
 * configured) and storage. The first that does not answer stops the start with its line. Outages after the
 * start are the readiness checks' (`/readyz` goes 503 until the dependency is back).
 */
export async function preflight(command: string, d: Dependencies): Promise<void> {
  const failed = (await dependencyProblems(d)).find((c) => c.problem !== undefined)
  if (failed) refuse(command, problemLine(failed.name, failed.problem!, d), 1)
}

/** A failed `listen` in an operator's words. */
export function listenProblem(e: NodeJS.ErrnoException, host: string, port: number): string {
  if (e.code === 'EADDRINUSE') return `port ${port} on ${host} is already in use (EADDRINUSE)`
  if (e.code === 'EACCES') return `may not listen on port ${port} (EACCES: ports below 1024 need privileges)`
  if (e.code === 'EADDRNOTAVAIL' || e.code === 'ENOTFOUND') return `${host} is not an address of this machine (${e.code})`
  return `cannot listen on ${host}:${port} (${e.code ?? e.message})`
}
