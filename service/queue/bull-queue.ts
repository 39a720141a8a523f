import type { Redis } from 'ioredis'
import { Queue, QueueEvents, UnrecoverableError, type Job as BullJob, type JobsOptions, type Worker, type WorkerOptions } from 'bullmq'
import { RenderError, type RenderErrorCode } from '../../core/index.js'
import type { Job, JobStage } from '../jobs/store.js'
import type { JobQueue } from './queue.js'
import { holdPlannedWorker } from './bull-hold-planned.js'
import { ServiceError } from '../errors.js'
import type { RenderOutcome, RenderTask } from '../jobs/render-task.js'
import { completeJob, failJob, failureText, type SettleDeps } from '../jobs/settle.js'
import { logger } from '../log.js'
import { isUnavailable } from '../lib/retry.js'
import { redisConnection, redisUnreachable } from './redis-connection.js'

const log = logger('bullmq')

/** An outage of Redis or the database: logged once by its watch, not again by every call it fails. */
export const quiet = (e: unknown) => redisUnreachable(e) || isUnavailable(e)

/** The BullMQ queue renders wait in, and the channel cancellations go out on (workers subscribe). */
export const RENDER_QUEUE = 'reelforge-render'
export const CANCEL_CHANNEL = 'reelforge:cancel'
/** The `lease_owner` of jobs BullMQ hands out: BullMQ's own locks are the leases. */
const OWNER = 'bullmq'

/** Failures that another attempt may not repeat (a killed encoder, a crashed renderer); the rest fail at once. */
const RETRYABLE = new Set<RenderErrorCode>(['E_RENDERER_CRASHED', 'E_OUTPUT_FAILED', 'E_GL_UNAVAILABLE'])

/**
 * What a worker throws to BullMQ for a failed render or piece: cancels, render errors and the service's
 * refusals (`E_INSUFFICIENT_CREDITS`, with its code in the reason) are not retried. The reason is the job's error
 * as the server would store it (a limit keeps its code: `E_MEMORY_LIMIT: …`).
 */
export function bullFailure(e: unknown, signal?: AbortSignal): unknown {
  if (signal?.aborted || (e instanceof RenderError && e.code === 'E_CANCELLED')) return new UnrecoverableError('cancelled')
  if (e instanceof RenderError && !RETRYABLE.has(e.code)) return new UnrecoverableError(failureText(e))
  if (e instanceof ServiceError) return new UnrecoverableError(failureText(e))
  return e
}

/** Stops a BullMQ job: one still waiting is removed; one being worked is told over pub/sub, and its worker aborts. */
export async function cancelBullJob(id: string, job: BullJob | undefined, publisher: Redis): Promise<void> {
  const state = await job?.getState()
  if (state === 'waiting' || state === 'delayed' || state === 'prioritized') await job!.remove()
  else await publisher.publish(CANCEL_CHANNEL, id)
}

/**
 * Options of every reelforge BullMQ worker (renders and pieces): a lock renewed while the job runs; a worker
 * silent for `lockMs` (killed) loses its job to another through the stalled-job check, at most twice.
 */
export const workerOptions = (connection: Redis, concurrency: number, lockMs: number): WorkerOptions => ({
  connection,
  concurrency,
  lockDuration: lockMs,
  stalledInterval: Math.max(1000, lockMs / 2),
  maxStalledCount: 2,
})

/** Priorities below this are live renders', from it up sandbox renders' (BullMQ's largest is 2^21 − 1). */
const LIVE_BAND = 2 ** 20

/**
 * The BullMQ priority of a render (lower runs first). Sandbox renders sit above every live one, so a sandbox
 * flood never goes ahead of paid work. Within each band a job ranks by how many of its account's jobs of
 * that kind were waiting ahead of it: every account's k-th waiting job shares rank k (first come first
 * served among them), which interleaves accounts — round-robin as of submission.
 */
export function bullPriority(sandbox: boolean, queuedAhead: number): number {
  const rank = Math.min(queuedAhead + 1, LIVE_BAND - 1)
  return sandbox ? LIVE_BAND + rank : rank
}

export { redisConnection }

export interface BullQueueDeps extends SettleDeps {
  redisUrl: string
  /** Attempts per job: failures that may pass (a crashed encoder) retry with backoff; stalls count too. */
  maxAttempts: number
  /** Time segments each render is split into over the workers (1 or unset: whole renders). */
  segments?: number
  /** Adds remote workers' frames to this process's /metrics totals. */
  count(outcome: Pick<RenderOutcome, 'frames' | 'renderMs'>): void
}

/**
 * The distributed queue: each persisted job is added to BullMQ (job id = render id, so adding twice is a
 * no-op) with everything a worker needs, and `reelforge worker` processes on any machine render it. Leases,
 * retries with backoff and stalled-job recovery are BullMQ's; this side only listens — active, progress,
 * completed, failed — and settles the job in the store (charge, status, webhooks). Every few seconds, and at
 * start, it reconciles the store with BullMQ, so events missed while the server was down are not lost.
 */
export class BullQueue implements JobQueue {
  private readonly queue: Queue
  private readonly events: QueueEvents
  private readonly publisher: Redis
  private timer: NodeJS.Timeout | undefined
  private reconciling: Promise<void> | undefined
  /** Answers workers asking to hold a planned render's real price (they have no database). */
  private holdPlanned: Worker | undefined
  private stopRequested = false
  get stopping(): boolean {
    return this.stopRequested
  }

  /** BullMQ leaves connections it was given open on close: these are closed in `stop`. */
  private readonly connections: Redis[]

  constructor(private readonly d: BullQueueDeps) {
    this.connections = [redisConnection(d.redisUrl), redisConnection(d.redisUrl), redisConnection(d.redisUrl)]
    this.queue = new Queue(RENDER_QUEUE, { connection: this.connections[0]! })
    this.events = new QueueEvents(RENDER_QUEUE, { connection: this.connections[1]!, autorun: false })
    this.publisher = this.connections[2]!
    this.queue.on('error', (e) => quiet(e) || log.error(e.message))
    this.events.on('error', (e) => quiet(e) || log.error(e.message))
  }

  private async add(job: Job): Promise<unknown> {
    const task: RenderTask = {
      id: job.id,
      kind: job.kind,
      request: job.request,
      sandbox: job.sandbox,
      accountId: job.accountId,
      keyId: job.keyId,
      // The split decided when the job was submitted, whoever queues it (again); older jobs: this process's.
      segments: job.segments ?? this.d.segments,
      yAxis: job.yAxis,
    }
    // Finished jobs stay in Redis a while, so a server that was down can still reconcile them.
    const options: JobsOptions = {
      jobId: job.id,
      attempts: this.d.maxAttempts,
      backoff: { type: 'exponential', delay: 2000 },
      removeOnComplete: { age: 7 * 86400 },
      removeOnFail: { age: 30 * 86400 },
    }
    options.priority = bullPriority(job.sandbox, await this.d.jobs.queuedAhead(job))
    return this.queue.add('render', task, options)
  }

  notify(jobId?: string): void {
    if (!jobId) return void this.reconcile()
    // A failed add is not lost: the job is QUEUED in the store and the next reconcile adds it.
    void (async () => {
      const job = await this.d.jobs.get(jobId)
      if (job) await this.add(job)
    })().catch((e) => log.error(`could not enqueue ${jobId}: ${e.message}`))
  }

  cancel(jobId: string): void {
    void (async () => cancelBullJob(jobId, await this.queue.getJob(jobId), this.publisher))().catch((e) => log.error(`cancel ${jobId}: ${e.message}`))
  }

  start(): void {
    const logged = (what: string, jobId: string, p: Promise<unknown>) => void p.catch((e) => quiet(e) || log.error(`${what} ${jobId}: ${(e as Error).message}`))
    this.events.on('active', ({ jobId }) => logged('start', jobId, this.started(jobId)))
    this.events.on('progress', ({ jobId, data }) => {
      const p = data as { stage?: JobStage; progress?: number }
      if (p && typeof p.progress === 'number' && p.stage) logged('progress', jobId, this.d.jobs.progress(jobId, OWNER, p.stage, p.progress))
    })
    this.events.on('completed', ({ jobId, returnvalue }) => logged('complete', jobId, this.completed(jobId, returnvalue as unknown as RenderOutcome)))
    this.events.on('failed', ({ jobId, failedReason }) => logged('fail', jobId, this.failed(jobId, failedReason)))
    void this.events.run().catch((e) => quiet(e) || log.error('events:', e.message))
    const holdPlannedConnection = redisConnection(this.d.redisUrl)
    this.connections.push(holdPlannedConnection)
    this.holdPlanned = holdPlannedWorker(holdPlannedConnection, this.d)
    this.holdPlanned.on('error', (e) => quiet(e) || log.error('hold-planned:', e.message))
    void this.reconcile()
    this.timer = setInterval(() => void this.reconcile(), 5000)
  }

  /**
   * A worker took the job (again, after a stall or a retry): BullMQ counts its starts, and every front end hears
   * each one — the one that records it first sends `render.processing` for that attempt.
   */
  private async started(jobId: string, queued?: BullJob) {
    const bull = queued ?? (await this.queue.getJob(jobId))
    const attempt = Math.max(1, bull?.attemptsStarted ?? 0)
    if (await this.d.jobs.start(jobId, OWNER, attempt)) await this.d.events.emit('render.processing', (await this.d.jobs.get(jobId))!)
  }

  private async completed(jobId: string, outcome: RenderOutcome) {
    if (!outcome?.keys) return
    if ((await this.d.jobs.get(jobId))?.status === 'QUEUED') await this.started(jobId) // its 'active' event was missed
    if (await completeJob(this.d, jobId, OWNER, outcome)) this.d.count(outcome)
  }

  /** BullMQ says `failed` for the last attempt only after it moved the job to its failed set; check. */
  private async failed(jobId: string, reason: string) {
    const state = await (await this.queue.getJob(jobId))?.getState()
    if (state && state !== 'failed') return // it will be retried
    await failJob(this.d, jobId, null, reason || 'the render failed', reason === 'cancelled')
  }

  /** Brings the store in line with BullMQ for every job not yet ended. */
  reconcile(): Promise<void> {
    this.reconciling ??= (async () => {
      try {
        for (const job of await this.d.jobs.unfinished()) {
          if (this.stopRequested) return
          const queued = await this.queue.getJob(job.id)
          if (!queued) {
            await this.add(job)
            continue
          }
          const state = await queued.getState()
          if (state === 'completed') await this.completed(job.id, queued.returnvalue as RenderOutcome)
          else if (state === 'failed') await failJob(this.d, job.id, null, queued.failedReason || 'the render failed')
          else if (state === 'active' && job.status === 'QUEUED') await this.started(job.id, queued)
        }
      } catch (e) {
        if (!this.stopRequested && !quiet(e)) log.error('reconcile:', (e as Error).message)
      } finally {
        this.reconciling = undefined
      }
    })()
    return this.reconciling
  }

  /** The server renders nothing itself: stopping closes its connections (workers finish on their own). */
  async stop(): Promise<void> {
    this.stopRequested = true
    clearInterval(this.timer)
    const closed = (async () => {
      await this.reconciling
      await this.holdPlanned?.close()
      await this.events.close()
      await this.queue.close()
      await Promise.all(this.connections.map((c) => c.quit().catch(() => c.disconnect())))
    })()
    // With Redis away each close above waits for it forever: they get a few seconds, then the connections are
    // cut (nothing is lost — the jobs are in the database, and the next start reconciles them).
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), 3000)))
    if ((await Promise.race([closed.catch(() => {}), late])) === 'late') for (const c of this.connections) c.disconnect()
    clearTimeout(timer)
  }
}
