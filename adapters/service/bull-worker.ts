import { UnrecoverableError, Worker } from 'bullmq'
import { RenderError, type Compositor, type RenderErrorCode } from '../../core/index.js'
import { CANCEL_CHANNEL, RENDER_QUEUE, redisConnection } from './bull-queue.js'
import { renderToStorage, type RenderOutcome, type RenderTask } from './render-task.js'
import type { Storage } from './storage.js'

/** Failures that another attempt may not repeat (a killed encoder, a crashed renderer); the rest fail at once. */
const RETRYABLE = new Set<RenderErrorCode>(['E_RENDERER_CRASHED', 'E_OUTPUT_FAILED', 'E_GL_UNAVAILABLE'])

export interface BullWorkerOptions {
  redisUrl: string
  renderer: Compositor
  /** Where files go: the service's storage (a shared directory or object storage). */
  storage: Storage
  workRoot: string
  concurrency: number
  /** BullMQ's lock on a job, renewed while it renders; a worker silent this long (killed) loses the job to another. */
  lockMs: number
  log?: (line: string) => void
}

/**
 * A render worker on BullMQ: takes jobs from Redis, renders them into storage and returns the outcome, which
 * the server settles. Needs no database. A killed worker's job comes back through BullMQ's stalled-job check
 * (after `lockMs`) and another worker renders it; cancellations arrive on a pub/sub channel.
 */
export async function startBullWorker(o: BullWorkerOptions) {
  const log = o.log ?? ((line: string) => console.log(line))
  const connection = redisConnection(o.redisUrl)
  const worker = new Worker<RenderTask, RenderOutcome>(
    RENDER_QUEUE,
    async (job, _token, signal) => {
      log(`rendering ${job.id} (attempt ${job.attemptsMade + 1})`)
      try {
        const outcome = await renderToStorage({ renderer: o.renderer, storage: o.storage, workRoot: o.workRoot }, job.data, {
          signal: signal ?? new AbortController().signal,
          onProgress: (stage, progress) => void job.updateProgress({ stage, progress: Math.round(progress * 1000) / 1000 }).catch(() => {}),
        })
        log(`rendered ${job.id}: ${outcome.frames} frames in ${(outcome.renderMs / 1000).toFixed(1)} s`)
        return outcome
      } catch (e) {
        const cancelled = signal?.aborted || (e instanceof RenderError && e.code === 'E_CANCELLED')
        log(`failed ${job.id}: ${cancelled ? 'cancelled' : (e as Error).message}`)
        if (cancelled) throw new UnrecoverableError('cancelled')
        if (e instanceof RenderError && !RETRYABLE.has(e.code)) throw new UnrecoverableError(e.message)
        throw e
      }
    },
    { connection, concurrency: o.concurrency, lockDuration: o.lockMs, stalledInterval: Math.max(1000, o.lockMs / 2), maxStalledCount: 2 },
  )
  worker.on('error', (e) => log(`[bullmq] ${e.message}`))
  const subscriber = connection.duplicate()
  await subscriber.subscribe(CANCEL_CHANNEL)
  subscriber.on('message', (_channel, jobId: string) => {
    if (worker.cancelJob(jobId, 'cancelled')) log(`cancelling ${jobId}`)
  })
  await worker.waitUntilReady()
  return {
    worker,
    /** Finishes the renders in progress (BullMQ's close waits for them), then disconnects. */
    async close(force = false) {
      await worker.close(force)
      await subscriber.quit().catch(() => {})
      await connection.quit().catch(() => {})
    },
  }
}
