import { Redis } from 'ioredis'

/** The Redis server `scripts/services.sh` starts for the tests (loopback, no persistence); db 1, flushed per test. */
export const REDIS_URL = process.env.REELFORGE_TEST_REDIS_URL ?? `redis://127.0.0.1:${process.env.REELFORGE_TEST_REDIS_PORT ?? 6399}/1`

/**
 * The same server's database `n`: a file whose processes must not meet another file's (or another checkout's). The
 * runner gives each running file one of 1–4 (its slot); files that keep their own take one number each — 7
 * hold-planned, 9 fairness, 10/11 destinations (PostgreSQL/SQLite pass), 12 serve-ops, 13 runbook, 14 worker-ops,
 * 15 outage-redis — as files run side by side whichever they are.
 */
export const redisDb = (n: number) => `${REDIS_URL.replace(/\/\d+$/, '')}/${n}`

/** Empties the test database (or `url`'s); throws (failing the test, never skipping it) when no Redis answers. */
export async function freshRedis(url = REDIS_URL): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null })
  try {
    await redis.connect()
    await redis.flushdb()
  } catch (e) {
    throw new Error(`no Redis at ${url} (${(e as Error).message}): run \`bash scripts/services.sh\`, which npm test does`)
  } finally {
    redis.disconnect()
  }
}
