import { ConnectionWatch } from '../lib/connection-watch.js'
import { logger } from '../log.js'
import { failureWords, networkCode, retrying, secondsFromEnv, unavailable, isUnavailable } from '../lib/retry.js'

/** node-postgres's words for a connection that went away or never came. */
const LOST = /Connection terminated|timeout exceeded when trying to connect|connection error and is not queryable/i

/**
 * SQLSTATEs of a server that is gone or not taking connections: class 08 (connection exception), 57P01–03
 * (shut down, crashed, starting up), 53300 (too many connections).
 */
const GONE = /^(08[0-9A-Z]{3}|57P0[123]|53300)$/

/** True when a database call failed because the server could not be reached (rather than for its SQL). */
export function connectionFailure(e: unknown): boolean {
  if (networkCode(e)) return true
  const err = e as { code?: unknown; message?: unknown } | undefined
  if (typeof err?.code === 'string' && GONE.test(err.code)) return true
  return typeof err?.message === 'string' && LOST.test(err.message)
}

/** This process's view of PostgreSQL: one log line when it goes, one when it is back. */
export const databaseWatch = new ConnectionWatch(logger('postgres'), 'PostgreSQL')

/**
 * One round trip to PostgreSQL. A call that cannot reach the server fails with `E_UNAVAILABLE` (HTTP 503 with
 * `Retry-After`, the address left out) instead of the driver's error, and the outage is logged once.
 */
export async function reached<T>(fn: () => Promise<T>): Promise<T> {
  const startedAt = Date.now()
  try {
    const out = await fn()
    databaseWatch.ok()
    return out
  } catch (e) {
    if (!connectionFailure(e)) throw e
    databaseWatch.failed(e, { startedAt })
    throw unavailable('the database', failureWords(e, 'the connection was lost'))
  }
}

/**
 * How long work that must not be lost — settling a finished render — keeps trying while the database is
 * unavailable (env `REELFORGE_DB_RETRY_S`, default 60 s). Requests do not wait: they answer 503 at once.
 */
export const databaseRetryMs = (env = process.env) => secondsFromEnv('REELFORGE_DB_RETRY_S', 60, env) * 1000

/** Runs `fn` again with backoff and jitter while it fails with `E_UNAVAILABLE`, for `databaseRetryMs`. */
export const throughOutages = <T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T> =>
  retrying(fn, { budgetMs: databaseRetryMs(), transient: isUnavailable, signal })
