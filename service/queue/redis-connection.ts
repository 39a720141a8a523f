import { Redis } from 'ioredis'
import { ConnectionWatch } from '../lib/connection-watch.js'
import { logger } from '../log.js'
import { backoffMs, networkCode } from '../lib/retry.js'

/**
 * This process's view of Redis over all its connections (BullMQ opens several, and duplicates some): one log
 * line when the first one drops, one when every one that dropped is back — where ioredis, left alone, printed
 * an "Unhandled error event" stack trace per connection and reconnect attempt.
 */
const watch = new ConnectionWatch(logger('redis'), 'Redis')

/** Reconnect waits: backoff with jitter from 0.25 s, doubling to 5 s at most. */
const retryStrategy = (times: number) => backoffMs(times - 1, 250, 5000)

/** Gives a connection, and every duplicate made of it (BullMQ's blocking ones), to the watch. */
function watched(redis: Redis): Redis {
  let lastError: unknown
  redis.on('error', (e) => (lastError = e))
  redis.on('reconnecting', (delayMs: number) => {
    watch.failed(lastError ?? new Error('connection closed'), { retryMs: delayMs, member: redis })
    lastError = undefined
  })
  redis.on('ready', () => watch.ok(redis))
  redis.on('end', () => watch.forget(redis))
  const duplicate = redis.duplicate.bind(redis)
  redis.duplicate = (override) => watched(duplicate(override))
  return redis
}

/** A Redis connection for BullMQ: no per-request retry limit (its blocking reads wait), watched for outages. */
export const redisConnection = (url: string) => watched(new Redis(url, { maxRetriesPerRequest: null, retryStrategy }))

/**
 * True for an error that only says Redis cannot be reached right now (BullMQ repeats each one as an `error`
 * event): the watch has logged that, so it is not logged again.
 */
export const redisUnreachable = (e: unknown): boolean =>
  !!networkCode(e) || /Connection is closed|Stream isn't writeable|Socket closed unexpectedly/i.test((e as Error)?.message ?? '')
