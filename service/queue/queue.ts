import { randomUUID } from 'node:crypto'
import { inject, injectable } from '../composition/di.js'
import type { ServiceConfig } from '../config.js'
import type { JobEvents } from '../jobs/job-events.js'
import type { JobStore } from '../jobs/store.js'
import type { Billing } from '../billing/billing.js'
import { failJob } from '../jobs/settle.js'
import { TOKENS } from '../composition/tokens.js'
import type { JobRunner } from '../jobs/job-runner.js'
import { logger } from '../log.js'
import { isUnavailable } from '../lib/retry.js'

const log = logger('queue')

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
 * an atomic UPDATE with a lease, fair between accounts (`JobStore.claim`); at start and every half lease, jobs whose lease expired (their process
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
    @inject(TOKENS.JobRunner) private readonly runner: JobRunner,
    @inject(TOKENS.Events) private readonly events: JobEvents,
    @inject(TOKENS.Billing) private readonly billing: Billing,
  ) {}

  notify(): void {
    for (const w of this.waiters) w()
    this.waiters.clear()
  }

  cancel(jobId: string): void {
    // Here, or on another process's next heartbeat (it reads cancel_requested).
    this.runner.cancel(jobId)
  }

  start(): void {
    if (!this.stopped) return
    this.stopped = false
    void this.sweep()
    this.sweeper = setInterval(() => void this.sweep(), Math.max(100, this.config.leaseMs / 2))
    this.loops = Array.from({ length: this.config.concurrency }, () => this.loop())
  }

  async stop(graceMs = 30_000): Promise<void> {
    this.stopRequested = true
    this.stopped = true
    clearInterval(this.sweeper)
    this.notify()
    const timer = setTimeout(() => this.abortAll(), graceMs)
    await Promise.all(this.loops)
    await this.sweeping
    clearTimeout(timer)
  }

  /** Past the grace, renders still running are stopped and their jobs go back to the queue (never failed for a stop). */
  private abortAll() {
    for (const id of this.runningIds) this.runner.interrupt(id)
  }

  private runningIds = new Set<string>()

  private sweeping: Promise<void> | undefined

  /** One sweep at a time (the interval may fire while a slow database still answers the last one). */
  private sweep(): Promise<void> {
    this.sweeping ??= (async () => {
      try {
        for (const { id, attempts } of await this.jobs.requeueExpired()) {
          if (attempts >= this.config.maxAttempts) {
            await failJob(
              { config: this.config, jobs: this.jobs, billing: this.billing, events: this.events },
              id,
              null,
              `interrupted ${attempts} times (the renderer crashed or was killed); giving up`,
            )
          } else {
            log.warn(`job ${id} lost its worker; re-queued (attempt ${attempts + 1})`)
            this.notify()
          }
        }
      } catch (e) {
        if (!isUnavailable(e)) log.error('sweep failed:', (e as Error).message) // an outage is logged once, by its watch
      } finally {
        this.sweeping = undefined
      }
    })()
    return this.sweeping
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      const job = await this.jobs.claim(this.owner, this.config.leaseMs, { accountCap: this.config.accountConcurrency }).catch((e) => {
        if (!isUnavailable(e)) log.error('claim failed:', (e as Error).message)
        return undefined
      })
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
        await this.runner.run(job, this.owner)
      } finally {
        this.runningIds.delete(job.id)
        // A job ended: an account it held at its cap may have work the idle loops can take now.
        this.notify()
      }
    }
  }
}
