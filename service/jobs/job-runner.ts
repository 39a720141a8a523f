import { inject, injectable } from '../composition/di.js'
import { RenderError, type Compositor } from '../../core/index.js'
import type { Billing } from '../billing/billing.js'
import { workDir, type ServiceConfig } from '../config.js'
import type { Destinations } from '../destinations/deliver.js'
import type { JobEvents } from './job-events.js'
import type { JobStore, Job } from './store.js'
import { renderToStorage, type RenderOutcome } from './render-task.js'
import { completeJob, failJob } from './settle.js'
import { checkDuration } from './limits.js'
import type { Storage } from '../storage/storage.js'
import { TOKENS } from '../composition/tokens.js'
import { throughOutages } from '../db/postgres-outage.js'
import { logger } from '../log.js'
import { isUnavailable } from '../lib/retry.js'

const log = logger('worker')

/** The abort reason of a render stopped because its process is stopping (`interrupt`). */
const INTERRUPTED = new RenderError('E_CANCELLED', 'the server is stopping; the render goes back to the queue')

/**
 * Renders one claimed job in this process (`renderToStorage`), with progress written to the job, then
 * settles it (`completeJob` / `failJob`). Cancellation and a lost lease both abort the renderer through one
 * AbortSignal.
 */
@injectable()
export class JobRunner {
  private readonly running = new Map<string, AbortController>()
  /** This process's render totals, for `/metrics`. */
  readonly stats = { frames: 0, seconds: 0, lastFps: 0 }

  constructor(
    @inject(TOKENS.Config) private readonly config: ServiceConfig,
    @inject(TOKENS.Jobs) private readonly jobs: JobStore,
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Renderer) private readonly renderer: Compositor,
    @inject(TOKENS.Billing) private readonly billing: Billing,
    @inject(TOKENS.Events) private readonly events: JobEvents,
    @inject(TOKENS.Destinations) private readonly destinations: Destinations,
  ) {}

  /** Aborts a running job of this process; false when it does not run here. */
  cancel(jobId: string): boolean {
    const c = this.running.get(jobId)
    c?.abort(new RenderError('E_CANCELLED', 'cancelled'))
    return !!c
  }

  /**
   * Stops a running job of this process because the process is stopping: its render is aborted (killed if it
   * does not listen) and the job goes back to the queue for another process or the next start — not failed.
   */
  interrupt(jobId: string): boolean {
    const c = this.running.get(jobId)
    c?.abort(INTERRUPTED)
    return !!c
  }

  get active(): number {
    return this.running.size
  }

  async run(job: Job, owner: string): Promise<void> {
    const controller = new AbortController()
    this.running.set(job.id, controller)
    let beating = false
    const heartbeat = setInterval(
      async () => {
        if (beating) return // the database is slow: one renewal at a time
        beating = true
        try {
          // A lost lease (or a cancel from another process) stops this render: someone else owns the job now.
          if (!(await this.jobs.heartbeat(job.id, owner, this.config.leaseMs)) || (await this.jobs.cancelRequested(job.id)))
            controller.abort(new RenderError('E_CANCELLED', 'cancelled'))
        } catch (e) {
          // The lease may lapse; the sweep decides. A database outage is logged once, by its watch.
          if (!isUnavailable(e)) log.error(`heartbeat of ${job.id} failed:`, (e as Error).message)
        } finally {
          beating = false
        }
      },
      Math.max(200, this.config.leaseMs / 3),
    )
    // The claimed row stands in when the database is gone this instant (a throw here would end the queue's loop).
    await this.events.emit('render.processing', (await this.jobs.get(job.id).catch(() => undefined)) ?? job)
    const settle = { config: this.config, jobs: this.jobs, billing: this.billing, events: this.events, destinations: this.destinations }
    try {
      const deps = { renderer: this.renderer, storage: this.storage, workRoot: workDir(this.config), limits: this.config.limits }
      const outcome = await renderToStorage(deps, job, {
        signal: controller.signal,
        onProgress: (stage, p) => void this.jobs.progress(job.id, owner, stage, p).catch(() => {}),
        // Smart timing is resolved now: hold the rest of the real price, or fail before the first frame.
        onPlanned: async (planned) => {
          // Smart timing may have made the edit longer than submission could see: the limit applies now.
          checkDuration(planned.timelineDuration, this.config.limits, job.sandbox)
          await throughOutages(
            () => this.billing.holdPlanned(job, { seconds: planned.duration, width: planned.width, height: planned.height }),
            controller.signal,
          )
        },
      })
      this.count(outcome)
      // A finished render waits out a database outage to be settled, rather than being rendered again.
      await throughOutages(() => completeJob(settle, job.id, owner, outcome, controller.signal))
    } catch (e) {
      if (controller.signal.reason === INTERRUPTED) {
        await this.jobs.release(job.id, owner).catch((err) => log.error(`could not re-queue ${job.id}:`, err))
        return
      }
      const cancelled = controller.signal.aborted || (e instanceof RenderError && e.code === 'E_CANCELLED')
      await throughOutages(() => failJob(settle, job.id, owner, e, cancelled)).catch((err) => log.error(`could not record the failure of ${job.id}:`, err))
    } finally {
      clearInterval(heartbeat)
      this.running.delete(job.id)
    }
  }

  /** Adds a finished render to this process's totals (also for renders done by remote workers, reported back). */
  count(outcome: Pick<RenderOutcome, 'frames' | 'renderMs'>): void {
    this.stats.frames += outcome.frames
    this.stats.seconds += outcome.renderMs / 1000
    this.stats.lastFps = outcome.frames / Math.max(1e-3, outcome.renderMs / 1000)
  }
}
