import type * as IORedis from 'ioredis'
import { lazyPackage } from '../../plugins/lib/lazy-package.js'
import { redact } from '../lib/redact.js'
import type { Check } from '../health/readiness.js'

/** ioredis where Redis is configured: `reelforge serve` and a service without it start without its ~0.15 CPU-s. */
const ioredis = lazyPackage<typeof IORedis>('ioredis')

/**
 * Why `url` cannot be a Redis URL, or undefined when it can. ioredis takes any string (`notaurl` becomes a
 * host name and is retried forever), so the CLI asks this first.
 */
export function redisUrlProblem(url: string): string | undefined {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return `must be a redis:// or rediss:// URL, not ${JSON.stringify(url)}`
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') return `must be a redis:// or rediss:// URL, not ${JSON.stringify(redact(url))}`
  if (!parsed.hostname) return `names no host: ${JSON.stringify(redact(url))}`
  if (parsed.pathname.length > 1 && !/^\/\d+$/.test(parsed.pathname)) return `may end in a database number only (/0 … /15), not ${parsed.pathname}`
  return undefined
}

/** One connection, one PING, within `timeoutMs`: resolves when Redis answers, throws its reason (refused, auth) when not. */
export async function pingRedis(url: string, timeoutMs = 5000): Promise<void> {
  let reason: string | undefined
  const redis = new (ioredis().Redis)(url, {
    lazyConnect: true,
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    connectTimeout: timeoutMs,
  })
  redis.on('error', (e) => (reason ??= e.message))
  try {
    await redis.connect()
    await redis.ping()
  } catch (e) {
    throw new Error(reason ?? (e as Error).message)
  } finally {
    redis.disconnect()
  }
}

/**
 * A readiness check on Redis: a connection of its own that never queues commands while down (a PING then fails
 * at once with the last connection error) and reconnects every second, so readiness comes back with Redis.
 */
export function redisProbe(url: string): { check: Check; close(): Promise<void> } {
  let lastError = 'not connected yet'
  const redis = new (ioredis().Redis)(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 2000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 1000),
  })
  // The reason is the readiness log's to tell, once per change; ioredis would print every failed attempt.
  redis.on('error', (e) => (lastError = e.message))
  return {
    check: async () => {
      if (redis.status !== 'ready') throw new Error(`${redact(url)}: ${lastError}`)
      await redis.ping()
    },
    close: async () => redis.disconnect(),
  }
}
