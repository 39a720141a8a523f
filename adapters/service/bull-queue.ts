import { Redis } from 'ioredis'
import { Queue, QueueEvents, type JobsOptions } from 'bullmq'
import type { Job, JobStage } from './jobs.js'
import type { JobQueue } from './queue.js'
import type { RenderOutcome, RenderTask } from './render-task.js'
import { completeJob, failJob, type SettleDeps } from './settle.js'

/** The BullMQ queue renders wait in, and the channel cancellations go out on (workers subscribe). */
export const RENDER_QUEUE = 'reelforge-render'
export const CANCEL_CHANNEL = 'reelforge:cancel'
/** The `lease_owner` of jobs BullMQ hands out: BullMQ's own locks are the leases. */
const OWNER = 'bullmq'

/** BullMQ wants no per-request retry limit on its blocking connections. */
export const redisConnection = (url: string) => new Redis(url, { maxRetriesPerRequest: null })

export interface BullQueueDeps extends SettleDeps {
  redisUrl: string
  /** Attempts per job: failures that may pass (a crashed encoder) retry with backoff; stalls count too. */
  maxAttempts: number
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
    this.queue.on('error', (e) => console.error('[bullmq]', e.message))
    this.events.on('error', (e) => console.error('[bullmq]', e.message))
  }

  private add(job: Job): Promise<unknown> {
    const task: RenderTask = { id: job.id, kind: job.kind, request: job.request, sandbox: job.sandbox, accountId: job.accountId, keyId: job.keyId }
    // Finished jobs stay in Redis a while, so a server that was down can still reconcile them.
    const options: JobsOptions = { jobId: job.id, attempts: this.d.maxAttempts, backoff: { type: 'exponential', delay: 2000 }, removeOnComplete: { age: 7 * 86400 }, removeOnFail: { age: 30 * 86400 } }
    return this.queue.add('render', task, options)
  }

  notify(jobId?: string): void {
    const job = jobId ? this.d.jobs.get(jobId) : undefined
    // A failed add is not lost: the job is QUEUED in the store and the next reconcile adds it.
    if (job) this.add(job).catch((e) => console.error(`[bullmq] could not enqueue ${job.id}: ${e.message}`))
    else void this.reconcile()
  }

  cancel(jobId: string): void {
    void (async () => {
      const job = await this.queue.getJob(jobId)
      const state = await job?.getState()
      if (state === 'waiting' || state === 'delayed' || state === 'prioritized') await job!.remove()
      else await this.publisher.publish(CANCEL_CHANNEL, jobId) // the worker rendering it aborts
    })().catch((e) => console.error(`[bullmq] cancel ${jobId}: ${e.message}`))
  }

  start(): void {
    this.events.on('active', ({ jobId }) => this.started(jobId))
    this.events.on('progress', ({ jobId, data }) => {
      const p = data as { stage?: JobStage; progress?: number }
      if (p && typeof p.progress === 'number' && p.stage) this.d.jobs.progress(jobId, OWNER, p.stage, p.progress)
    })
    this.events.on('completed', ({ jobId, returnvalue }) => this.completed(jobId, returnvalue as unknown as RenderOutcome))
    this.events.on('failed', ({ jobId, failedReason }) => void this.failed(jobId, failedReason))
    void this.events.run().catch((e) => console.error('[bullmq] events:', e.message))
    void this.reconcile()
    this.timer = setInterval(() => void this.reconcile(), 5000)
  }

  private started(jobId: string) {
    const before = this.d.jobs.get(jobId)
    if (before?.status === 'QUEUED' && this.d.jobs.start(jobId, OWNER)) this.d.events.emit('render.processing', this.d.jobs.get(jobId)!)
    else if (before?.status === 'PROCESSING') this.d.jobs.start(jobId, OWNER) // restarted after a stall
  }

  private completed(jobId: string, outcome: RenderOutcome) {
    if (!outcome?.keys) return
    if (this.d.jobs.get(jobId)?.status === 'QUEUED') this.started(jobId) // its 'active' event was missed
    if (completeJob(this.d, jobId, OWNER, outcome)) this.d.count(outcome)
  }

  /** BullMQ says `failed` for the last attempt only after it moved the job to its failed set; check. */
  private async failed(jobId: string, reason: string) {
    const state = await (await this.queue.getJob(jobId))?.getState()
    if (state && state !== 'failed') return // it will be retried
    failJob(this.d, jobId, null, reason || 'the render failed', reason === 'cancelled')
  }

  /** Brings the store in line with BullMQ for every job not yet ended. */
  reconcile(): Promise<void> {
    this.reconciling ??= (async () => {
      try {
        for (const job of this.d.jobs.unfinished()) {
          if (this.stopRequested) return
          const queued = await this.queue.getJob(job.id)
          if (!queued) {
            await this.add(job)
            continue
          }
          const state = await queued.getState()
          if (state === 'completed') this.completed(job.id, queued.returnvalue as RenderOutcome)
          else if (state === 'failed') failJob(this.d, job.id, null, queued.failedReason || 'the render failed')
          else if (state === 'active' && job.status === 'QUEUED') this.started(job.id)
        }
      } catch (e) {
        if (!this.stopRequested) console.error('[bullmq] reconcile:', (e as Error).message)
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
    await this.reconciling
    await this.events.close()
    await this.queue.close()
    await Promise.all(this.connections.map((c) => c.quit().catch(() => c.disconnect())))
  }
}
