import { Job, type Queue, type QueueEvents } from 'bullmq'

/** How often a waiter also asks Redis for the job's state itself. */
const POLL_MS = 2000

/**
 * A BullMQ job's result, as `job.waitUntilFinished` gives it (its return value, or its failure thrown), made
 * proof against a missed event. A `QueueEvents` that had read nothing yet resumes after a Redis outage at
 * `$` — after whatever was written while it reconnected — so the event of a job finished meanwhile never
 * comes: the waiter also asks for the job's state every 2 s. `timeoutMs` as `waitUntilFinished`'s.
 */
export async function finished<R>(queue: Queue, job: Job<unknown, R>, events: QueueEvents, timeoutMs?: number): Promise<R> {
  let settled = false
  const polled = (async (): Promise<R> => {
    for (;;) {
      await new Promise((r) => setTimeout(r, POLL_MS).unref())
      if (settled) return new Promise<R>(() => {}) // the event won: this one never settles
      const state = await job.getState().catch(() => 'unknown') // Redis away: the next poll asks again
      if (state !== 'completed' && state !== 'failed') continue
      const now = await Job.fromId<unknown, R>(queue, job.id!)
      if (state === 'completed') return now!.returnvalue
      throw new Error(now?.failedReason || 'the job failed')
    }
  })()
  try {
    return await Promise.race([job.waitUntilFinished(events, timeoutMs) as Promise<R>, polled])
  } finally {
    settled = true
  }
}
