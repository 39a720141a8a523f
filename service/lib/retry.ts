import { ServiceError } from '../errors.js'

/**
 * The wait before try `attempt + 1` (0-based): exponential from `baseMs`, capped at `capMs`, with "equal
 * jitter" (half fixed, half random) so processes that failed together do not come back together.
 */
export function backoffMs(attempt: number, baseMs = 250, capMs = 5000): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.min(attempt, 30))
  return ceiling / 2 + (Math.random() * ceiling) / 2
}

/** Seconds from an environment variable (a number, 0 or more), else `fallback`; anything else stops the start. */
export function secondsFromEnv(name: string, fallback: number, env = process.env): number {
  const raw = env[name]
  if (raw === undefined || raw.trim() === '') return fallback
  const n = Number(raw)
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a number of seconds, 0 or more (got ${JSON.stringify(raw)})`)
  return n
}

export interface RetryOptions {
  /** How long to keep trying, from the first try; past it the last failure goes to `giveUp`. */
  budgetMs: number
  /** Which failures may pass by themselves; the rest are thrown at once. */
  transient(e: unknown): boolean
  /** What to throw once the budget is spent (default: the last failure). */
  giveUp?(e: unknown, elapsedMs: number): unknown
  /** Each failure that will be tried again, with the wait before the next try. */
  onRetry?(e: unknown, delayMs: number): void
  signal?: AbortSignal
}

/** Runs `fn` until it succeeds, fails for good, or `budgetMs` is spent — waiting `backoffMs` between tries. */
export async function retrying<T>(fn: () => Promise<T>, o: RetryOptions): Promise<T> {
  const started = Date.now()
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn()
    } catch (e) {
      const elapsed = Date.now() - started
      const delay = backoffMs(attempt)
      if (!o.transient(e) || o.signal?.aborted || elapsed + delay > o.budgetMs) throw o.transient(e) && o.giveUp ? o.giveUp(e, elapsed) : e
      o.onRetry?.(e, delay)
      await sleep(delay, o.signal)
    }
  }
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(done, ms)
    function done() {
      clearTimeout(t)
      signal?.removeEventListener('abort', done)
      resolve()
    }
    signal?.addEventListener('abort', done, { once: true })
  })

/** Seconds a client is told to wait (`Retry-After`) while a dependency is down. */
export const UNAVAILABLE_RETRY_AFTER_S = 5

/**
 * The error clients get while a dependency is down: `E_UNAVAILABLE` (HTTP 503 with `Retry-After`). Its text
 * names the dependency and what went wrong in words — never its address, host or bucket.
 */
export const unavailable = (what: string, why: string) =>
  new ServiceError('E_UNAVAILABLE', `${what} is unavailable (${why}); try again shortly`, { retryAfter: UNAVAILABLE_RETRY_AFTER_S })

export const isUnavailable = (e: unknown): boolean => e instanceof ServiceError && e.code === 'E_UNAVAILABLE'

/** What a network failure's code means, in words a client may read. */
const WORDS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ECONNABORTED: 'connection aborted',
  EPIPE: 'connection closed',
  ETIMEDOUT: 'timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ENETDOWN: 'network down',
  EHOSTDOWN: 'host down',
  ENOTFOUND: 'name not resolved',
  EAI_AGAIN: 'name not resolved',
}

/** Network error codes: the far side may come back by itself. */
export const NETWORK_CODES = new Set(Object.keys(WORDS))

/** An error's network code, looking inside the wrappers (`cause`, an AggregateError's `errors`). */
export function networkCode(e: unknown): string | undefined {
  for (let err = e as { code?: unknown; cause?: unknown; errors?: unknown[] } | undefined, depth = 0; err && depth < 4; depth++) {
    if (typeof err.code === 'string' && NETWORK_CODES.has(err.code)) return err.code
    const inner = err.errors?.find((x) => networkCode(x))
    if (inner) return networkCode(inner)
    err = err.cause as typeof err
  }
  return undefined
}

/** A failure in words for `unavailable`: the network code's meaning, else `fallback`. */
export const failureWords = (e: unknown, fallback: string) => WORDS[networkCode(e) ?? ''] ?? fallback
