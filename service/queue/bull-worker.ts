import { Queue, QueueEvents, Worker } from 'bullmq'
import type { Compositor } from '../../core/index.js'
import { renderSegmented } from '../isolation/render-segmented.js'
import { askHoldPlanned, HOLD_PLANNED_QUEUE } from './bull-hold-planned.js'
import { bullFailure, CANCEL_CHANNEL, quiet, RENDER_QUEUE, redisConnection, workerOptions } from './bull-queue.js'
import { remotePieces, SEGMENT_QUEUE, segmentWorker } from './bull-segments.js'
import { renderToStorage, type RenderOutcome, type RenderTask } from '../jobs/render-task.js'
import type { Storage } from '../storage/storage.js'
import type { Limits } from '../config.js'
import { logger } from '../log.js'

/** A worker's own lines (`rendering <id> (attempt 1)`) read bare in the text format, as they always did. */
const workerLog = logger('worker', { prefix: false })

export interface BullWorkerOptions {
  redisUrl: string
  renderer: Compositor
  /** Where files go: the service's storage (a shared directory or object storage). */
  storage: Storage
  workRoot: string
  /** Where pieces of split renders are read back to (object storage downloads them here). */
  cacheDir: string
  concurrency: number
  /** BullMQ's lock on a job, renewed while it renders; a worker silent this long (killed) loses the job to another. */
  lockMs: number
  /** The service limits: each render's time budget comes from them (absent: no budget). */
  limits?: Limits
  log?: (line: string) => void
}

/**
 * A render worker on BullMQ: takes jobs from Redis, renders them into storage and returns the outcome, which
 * the server settles. Needs no database. A killed worker's job comes back through BullMQ's stalled-job check
 * (after `lockMs`) and another worker renders it; cancellations arrive on a pub/sub channel.
 *
 * A job the server marked for `segments` > 1 is split: this worker plans it, queues its time segments and its
 * sound as pieces on a second queue that every worker also takes, then joins the pieces from storage without
 * re-encoding (`renderSegmented`). Pieces retry and recover from stalls like whole renders.
 */
export async function startBullWorker(o: BullWorkerOptions) {
  const log = o.log ?? ((line: string) => workerLog.info(line))
  const connection = redisConnection(o.redisUrl)
  const segmentConnections = [redisConnection(o.redisUrl), redisConnection(o.redisUrl), redisConnection(o.redisUrl), redisConnection(o.redisUrl)] as const
  const pieceQueue = new Queue(SEGMENT_QUEUE, { connection: segmentConnections[0] })
  const pieceEvents = new QueueEvents(SEGMENT_QUEUE, { connection: segmentConnections[1] })
  pieceEvents.setMaxListeners(0) // one progress listener per piece in flight
  const publisher = segmentConnections[2]
  // Once a render is planned, the service holds its real price (smart timing) or refuses it before the first frame.
  const holdPlannedConnection = redisConnection(o.redisUrl)
  const holdPlannedQueue = new Queue(HOLD_PLANNED_QUEUE, { connection: segmentConnections[0] })
  const holdPlannedEvents = new QueueEvents(HOLD_PLANNED_QUEUE, { connection: holdPlannedConnection })
  holdPlannedEvents.setMaxListeners(0) // one waiter per render being planned
  const holdPlanned = askHoldPlanned({ queue: holdPlannedQueue, events: holdPlannedEvents, timeoutMs: 60_000 })
  const pieces = segmentWorker({
    connection: segmentConnections[3],
    renderer: o.renderer,
    storage: o.storage,
    workRoot: o.workRoot,
    concurrency: o.concurrency,
    lockMs: o.lockMs,
    log,
  })
  /** The renderer a job uses: split over the workers when the server asked for segments, else this one. */
  const rendererFor = (task: RenderTask, attempt: number): { renderer: Compositor; done(): Promise<void> } => {
    if (!task.segments || task.segments < 2) return { renderer: o.renderer, done: async () => {} }
    const remote = remotePieces({ queue: pieceQueue, events: pieceEvents, publisher, storage: o.storage, cacheDir: o.cacheDir, parent: task.id, attempt })
    const r = o.renderer
    return {
      renderer: {
        registry: r.registry,
        validate: (e, v) => r.validate(e, v),
        plan: (e, p) => r.plan(e, p),
        render: (edit, ro) => renderSegmented(r, edit, { ...ro, segments: task.segments ?? 1, pieces: remote }),
      },
      done: () => remote.cleanup(),
    }
  }
  const worker = new Worker<RenderTask, RenderOutcome>(
    RENDER_QUEUE,
    async (job, _token, signal) => {
      log(
        `rendering ${job.id} (attempt ${job.attemptsMade + 1}${job.data.segments && job.data.segments > 1 ? `, in ${job.data.segments} segments over the workers` : ''})`,
      )
      const { renderer, done } = rendererFor(job.data, job.attemptsMade + 1)
      try {
        const outcome = await renderToStorage({ renderer, storage: o.storage, workRoot: o.workRoot, limits: o.limits }, job.data, {
          signal: signal ?? new AbortController().signal,
          onProgress: (stage, progress) => void job.updateProgress({ stage, progress: Math.round(progress * 1000) / 1000 }).catch(() => {}),
          onPlanned: (planned) => holdPlanned(job.data.id, planned),
        })
        log(`rendered ${job.id}: ${outcome.frames} frames in ${(outcome.renderMs / 1000).toFixed(1)} s`)
        return outcome
      } catch (e) {
        const failure = bullFailure(e, signal)
        log(`failed ${job.id}: ${(failure as Error).message}`)
        throw failure
      } finally {
        await done()
      }
    },
    workerOptions(connection, o.concurrency, o.lockMs),
  )
  // Redis being down is one line from its watch (service/queue/redis-connection.ts), not one per connection and try.
  // BullMQ prints a stack for an `error` event nobody listens to: every worker, queue and event stream has a listener.
  const reportError = (e: Error) => quiet(e) || log(`[bullmq] ${e.message}`)
  worker.on('error', reportError)
  pieces.on('error', reportError)
  for (const q of [pieceQueue, holdPlannedQueue]) q.on('error', reportError)
  for (const q of [pieceEvents, holdPlannedEvents]) q.on('error', reportError)
  const subscriber = connection.duplicate()
  await subscriber.subscribe(CANCEL_CHANNEL)
  subscriber.on('message', (_channel, jobId: string) => {
    if (worker.cancelJob(jobId, 'cancelled') || pieces.cancelJob(jobId, 'cancelled')) log(`cancelling ${jobId}`)
  })
  await Promise.all([worker.waitUntilReady(), pieces.waitUntilReady(), pieceEvents.waitUntilReady(), holdPlannedEvents.waitUntilReady()])
  return {
    worker,
    /** The worker of pieces of split renders (every worker takes them). */
    pieces,
    /** Finishes the renders in progress (BullMQ's close waits for them), then disconnects. */
    async close(force = false) {
      await worker.close(force)
      await pieces.close(force)
      await pieceEvents.close()
      await pieceQueue.close()
      await holdPlannedEvents.close()
      await holdPlannedQueue.close()
      for (const c of [subscriber, connection, holdPlannedConnection, ...segmentConnections]) await c.quit().catch(() => c.disconnect())
    },
  }
}
