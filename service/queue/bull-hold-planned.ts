import { type Queue, type QueueEvents, Worker } from 'bullmq'
import type { Redis } from 'ioredis'
import type { PlannedRender } from '../../core/index.js'
import type { Billing } from '../billing/billing.js'
import { ServiceError, type ServiceErrorCode } from '../errors.js'
import { throughOutages } from '../db/postgres-outage.js'
import { isUnavailable } from '../lib/retry.js'
import { finished } from './bull-finished.js'
import type { JobStore } from '../jobs/store.js'
import type { ServiceConfig } from '../config.js'
import { checkDuration } from '../jobs/limits.js'

/**
 * The BullMQ queue a worker asks the service through, once a render is planned, to hold its real price
 * (`Billing.holdPlanned`). Workers have no database; any `serve` process answers from its wallet. Chosen over
 * resolving the duration in the server (it would download and probe every source at submission) and over
 * Redis pub/sub (a question asked while no server listens would be lost; a queued one waits for the next).
 */
export const HOLD_PLANNED_QUEUE = 'reelforge-hold-planned'

/** A planned render's real duration and picture size. */
export interface HoldPlannedRequest {
  jobId: string
  seconds: number
  /** The whole timeline's seconds (the duration limit's measure; `seconds` is after `output.range`). */
  timelineSeconds: number
  width: number
  height: number
}

/** The service's answer: go on, or its refusal (`E_INSUFFICIENT_CREDITS`, …) as code and message. */
export type HoldPlannedAnswer = { ok: true } | { ok: false; code: ServiceErrorCode; message: string }

/**
 * The worker's side, as a render's `onPlanned`: asks and waits for the answer (at most `timeoutMs`: no
 * server answering fails the attempt, which BullMQ retries). A refusal is thrown as the ServiceError it was.
 */
export function askHoldPlanned(d: { queue: Queue; events: QueueEvents; timeoutMs: number }) {
  return async (jobId: string, planned: PlannedRender): Promise<void> => {
    const request: HoldPlannedRequest = {
      jobId,
      seconds: planned.duration,
      timelineSeconds: planned.timelineDuration,
      width: planned.width,
      height: planned.height,
    }
    const asked = await d.queue.add('hold-planned', request, { removeOnComplete: { age: 3600 }, removeOnFail: { age: 86400 } })
    const answer = (await finished(d.queue, asked, d.events, d.timeoutMs)) as HoldPlannedAnswer
    if (!answer.ok) throw new ServiceError(answer.code, answer.message)
  }
}

/** The service's side: answers each question from its job store and wallet (holding is idempotent per price). */
export function holdPlannedWorker(
  connection: Redis,
  d: { config: ServiceConfig; jobs: JobStore; billing: Billing },
): Worker<HoldPlannedRequest, HoldPlannedAnswer> {
  return new Worker<HoldPlannedRequest, HoldPlannedAnswer>(
    HOLD_PLANNED_QUEUE,
    // A database outage is waited out (the worker waits as long); past it the worker's wait fails and BullMQ retries.
    ({ data }) =>
      throughOutages(async () => {
        const job = await d.jobs.get(data.jobId)
        if (job?.status !== 'QUEUED' && job?.status !== 'PROCESSING')
          return { ok: false, code: 'E_CONFLICT', message: `render ${data.jobId} is ${job?.status ?? 'unknown'}` }
        try {
          // Smart timing may have made the edit longer than submission could see: the limit applies now.
          checkDuration(data.timelineSeconds, d.config.limits, job.sandbox)
          await d.billing.holdPlanned(job, data)
          return { ok: true }
        } catch (e) {
          if (e instanceof ServiceError && !isUnavailable(e)) return { ok: false, code: e.code, message: e.message }
          throw e // the database failed
        }
      }),
    { connection, concurrency: 8 },
  )
}
