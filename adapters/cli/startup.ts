import { checkDatabase } from '../../service/db/db-check.js'
import { bounded } from '../../service/health/readiness.js'
import { pingRedis, redisUrlProblem } from '../../service/queue/redis-check.js'
import type { Storage } from '../../service/storage/storage.js'
import { redact } from '../../service/redact.js'

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

/**
 * What a process needs before it takes work, checked at once: the database (when it has one), Redis (when
 * configured) and storage. The first that does not answer within `timeoutMs` stops the start with its line.
 * Outages after the start are the readiness checks' (`/readyz` goes 503 until the dependency is back).
 */
export async function preflight(command: string, d: { database?: string; redisUrl?: string; storage: Storage }, timeoutMs = 10_000): Promise<void> {
  const checks: [string, (signal: AbortSignal) => Promise<void>][] = []
  if (d.database !== undefined) checks.push(['database', () => checkDatabase(d.database!, timeoutMs)])
  if (d.redisUrl) checks.push(['redis', () => pingRedis(d.redisUrl!, timeoutMs)])
  checks.push(['storage', (signal) => d.storage.check(signal)])
  const failures = await Promise.all(
    checks.map(([, check]) =>
      bounded(check, timeoutMs).then(
        () => undefined,
        (e: Error) => e.message,
      ),
    ),
  )
  const i = failures.findIndex((f) => f !== undefined)
  if (i < 0) return
  const [name] = checks[i]!
  refuse(command, name === 'redis' ? `Redis at ${redact(d.redisUrl!)} does not answer (${failures[i]})` : `${name}: ${failures[i]}`, 1)
}

/** A failed `listen` in an operator's words. */
export function listenProblem(e: NodeJS.ErrnoException, host: string, port: number): string {
  if (e.code === 'EADDRINUSE') return `port ${port} on ${host} is already in use (EADDRINUSE)`
  if (e.code === 'EACCES') return `may not listen on port ${port} (EACCES: ports below 1024 need privileges)`
  if (e.code === 'EADDRNOTAVAIL' || e.code === 'ENOTFOUND') return `${host} is not an address of this machine (${e.code})`
  return `cannot listen on ${host}:${port} (${e.code ?? e.message})`
}
