import { Redis } from 'ioredis'

/** The Redis server `scripts/services.sh` starts for the tests (loopback, no persistence); db 1, flushed per test. */
export const REDIS_URL = process.env.REELFORGE_TEST_REDIS_URL ?? `redis://127.0.0.1:${process.env.REELFORGE_TEST_REDIS_PORT ?? 6399}/1`

/** Empties the test database; throws (failing the test, never skipping it) when no Redis answers. */
export async function freshRedis(): Promise<void> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null })
  try {
    await redis.connect()
    await redis.flushdb()
  } catch (e) {
    throw new Error(`no Redis at ${REDIS_URL} (${(e as Error).message}): run \`bash scripts/services.sh\`, which npm test does`)
  } finally {
    redis.disconnect()
  }
}
