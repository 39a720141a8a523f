import { ConnectionWatch } from '../lib/connection-watch.js'
import { logger } from '../log.js'
import { failureWords, networkCode, retrying, secondsFromEnv, unavailable } from '../lib/retry.js'

/**
 * How long a storage call keeps trying through an outage before it fails (env `REELFORGE_STORAGE_RETRY_S`,
 * default 120 s): a finished render waits this long for its upload, with its file kept, and is never
 * rendered again for it.
 */
export const storageRetryMs = (env = process.env) => secondsFromEnv('REELFORGE_STORAGE_RETRY_S', 120, env) * 1000

/** Local-disk failures that pass by themselves (a busy or stale network mount, too many open files). */
const DISK_CODES = new Set(['EAGAIN', 'EBUSY', 'EMFILE', 'ENFILE', 'ESTALE', 'EINTR', 'ETIMEDOUT'])

/** S3 answers that mean "not now": throttling, a server error, a timeout. */
const S3_TRANSIENT_NAMES = new Set(['SlowDown', 'ServiceUnavailable', 'InternalError', 'RequestTimeout', 'TimeoutError', 'RequestTimeTooSkewed'])

/** A storage failure worth trying again: the network, a busy disk, or S3 saying it is overloaded. */
export function transientStorageError(e: unknown): boolean {
  const err = e as { code?: unknown; name?: unknown; $metadata?: { httpStatusCode?: number } } | undefined
  if (networkCode(e)) return true
  if (typeof err?.code === 'string' && DISK_CODES.has(err.code)) return true
  const status = err?.$metadata?.httpStatusCode
  if (status !== undefined && (status >= 500 || status === 429)) return true
  return typeof err?.name === 'string' && S3_TRANSIENT_NAMES.has(err.name)
}

/** This process's view of its storage: one log line when it goes, one when it comes back. */
const watch = new ConnectionWatch(logger('storage'), 'storage')

/**
 * One storage call, tried again with backoff and jitter through transient failures for `budgetMs`, then
 * failed with `E_UNAVAILABLE` (no endpoint, host or bucket in it). Other failures are thrown at once.
 */
export async function storageCall<T>(fn: () => Promise<T>, budgetMs = storageRetryMs()): Promise<T> {
  const startedAt = Date.now()
  const out = await retrying(fn, {
    budgetMs,
    transient: transientStorageError,
    onRetry: (e, delayMs) => watch.failed(e, { retryMs: delayMs, startedAt }),
    giveUp: (e, elapsedMs) => {
      watch.failed(e, { startedAt })
      const { code, $metadata } = e as { code?: unknown; $metadata?: { httpStatusCode?: number } }
      const fallback = $metadata?.httpStatusCode ? `it answered ${$metadata.httpStatusCode}` : typeof code === 'string' ? code : 'it did not answer'
      const tried = elapsedMs < 10_000 ? (elapsedMs / 1000).toFixed(1) : String(Math.round(elapsedMs / 1000))
      return unavailable('storage', `${failureWords(e, fallback)}, tried for ${tried} s`)
    },
  })
  watch.ok()
  return out
}
