import type { Job } from '../jobs/store.js'

/**
 * The callback body Shotstack POSTs when a render ends, for jobs that came through Shotstack's surface:
 * their receivers parse this shape, not reelforge's `{ event, timestamp, data }`. Shotstack sends nothing
 * while a render is queued or running, so neither does this (the global webhook still gets every event).
 * It is signed like every other delivery (`x-reelforge-signature`); Shotstack's own are unsigned.
 */
export function shotstackCallback(job: Job): string {
  return JSON.stringify({
    type: 'edit',
    action: 'render',
    id: job.id,
    owner: job.accountId,
    status: job.status === 'COMPLETE' ? 'done' : 'failed',
    url: job.status === 'COMPLETE' ? job.url : null,
    error: job.error,
    completed: job.completedAt ?? job.updatedAt,
  })
}

/** Whether a job's own `callback` hears this event: Shotstack's jobs only when they end. */
export const callbackHears = (job: Job, event: string) => job.api !== 'shotstack' || event === 'render.complete' || event === 'render.failed'
