import { randomUUID } from 'node:crypto'
import { inject, injectable } from './di.js'
import type { ServiceConfig } from './config.js'
import { JobEvents } from './events.js'
import { JobStore } from './jobs.js'
import type { Billing } from './billing.js'
import { TOKENS } from './tokens.js'
import { RenderWorker } from './worker.js'

/** Where submitted jobs wait for a worker. In-process by default; a distributed back end can replace it. */
export interface JobQueue {
  /** A job was persisted as QUEUED (`jobId`, when one is known): hand it to a worker. */
  notify(jobId?: string): void
  /** Stops a job wherever it renders (its failure is already recorded). */
  cancel(jobId: string): void
  start(): void
  /** Stops taking jobs and waits for running ones (or aborts them after `graceMs`). */
  stop(graceMs?: number): Promise<void>
  /** True from the moment `stop` is called (readiness turns false). */
  readonly stopping: boolean
}

/**
 * The embedded queue: the jobs table itself, worked by `concurrency` loops in this process. Each claim is
 * an atomic UPDATE with a lease; at start and every half lease, jobs whose lease expired (their process
 * died) are re-queued — or failed once they were interrupted `maxAttempts` times.
 */
@injectable()
export class InProcessQueue implements JobQueue {
  readonly owner = `${process.pid}-${randomUUID()}`
  private stopped = true
  private stopRequested = false
  get stopping(): boolean {
    return this.stopRequested
  }
  private readonly waiters = new Set<() => void>()
  private loops: Promise<void>[] = []
  private sweeper: NodeJS.Timeout | undefined

  constructor(
    @inject(TOKENS.Config) private readonly config: ServiceConfig,
    @inject(TOKENS.Jobs) private readonly jobs: JobStore,
    @inject(TOKENS.Worker) private readonly worker: RenderWorker,
    @inject(TOKENS.Events) private readonly events: JobEvents,
    @inject(TOKENS.Billing) private readonly billing: Billing,
  ) {}

  notify(): void {
    for (const w of this.waiters) w()
    this.waiters.clear()
  }

  cancel(jobId: string): void {
    // Here, or on another process's next heartbeat (it reads cancel_requested).
    this.worker.cancel(jobId)
  }

  start(): void {
    if (!this.stopped) return
    this.stopped = false
    this.sweep()
    this.sweeper = setInterval(() => this.sweep(), Math.max(100, this.config.leaseMs / 2))
    this.loops = Array.from({ length: this.config.concurrency }, () => this.loop())
  }

  async stop(graceMs = 30_000): Promise<void> {
    this.stopRequested = true
    this.stopped = true
    clearInterval(this.sweeper)
    this.notify()
    const timer = setTimeout(() => this.abortAll(), graceMs)
    await Promise.all(this.loops)
    clearTimeout(timer)
  }

  private abortAll() {
    for (const id of this.runningIds) this.worker.cancel(id)
  }

  private runningIds = new Set<string>()

  private sweep() {
    for (const { id, attempts } of this.jobs.requeueExpired()) {
      if (attempts >= this.config.maxAttempts) {
        // The failure and the release of the job's credit hold commit together (a crash here loses neither).
        const failed = this.jobs.transaction(() => {
          const ok = this.jobs.fail(id, null, `interrupted ${attempts} times (the renderer crashed or was killed); giving up`)
          if (ok) this.billing.release(id)
          return ok
        })
        if (failed) this.events.emit('render.failed', this.jobs.get(id)!)
      } else {
        console.warn(`[queue] job ${id} lost its worker; re-queued (attempt ${attempts + 1})`)
        this.notify()
      }
    }
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      const job = this.jobs.claim(this.owner, this.config.leaseMs)
      if (!job) {
        // Sleep until notified, with a periodic wake-up for jobs queued by other processes.
        await new Promise<void>((resolve) => {
          const wake = () => (clearTimeout(t), this.waiters.delete(wake), resolve())
          const t = setTimeout(wake, 1000)
          this.waiters.add(wake)
        })
        continue
      }
      this.runningIds.add(job.id)
      try {
        await this.worker.run(job, this.owner)
      } finally {
        this.runningIds.delete(job.id)
      }
    }
  }
}
