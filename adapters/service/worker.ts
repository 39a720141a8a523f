import { mkdir, rm } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { inject, injectable } from './di.js'
import { RenderError, type Compositor, type RenderProgress } from '../../core/index.js'
import type { Billing } from './billing.js'
import { fileUrl, workDir, type ServiceConfig } from './config.js'
import { JobEvents } from './events.js'
import { JobStore, type Job, type JobStage } from './jobs.js'
import { stitchToEdit, type StitchRequest } from './stitch.js'
import type { Storage } from './storage.js'
import { TOKENS } from './tokens.js'

/** The "SANDBOX" watermark laid over every frame of a sandbox render. */
const WATERMARK = { asset: { type: 'title', text: 'SANDBOX', style: 'chunk', size: 'x-large', color: '#66ffffff' }, start: 0, length: 'end' }

/**
 * Renders one claimed job: builds the edit (stitches become edits; sandbox edits get the watermark), renders
 * into the work directory with progress written to the job, stores the files, settles credits and
 * completes. Cancellation and a lost lease both abort the renderer through one AbortSignal.
 */
@injectable()
export class RenderWorker {
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
  ) {}

  /** Aborts a running job of this process; false when it does not run here. */
  cancel(jobId: string): boolean {
    const c = this.running.get(jobId)
    c?.abort(new RenderError('E_CANCELLED', 'cancelled'))
    return !!c
  }

  get active(): number {
    return this.running.size
  }

  async run(job: Job, owner: string): Promise<void> {
    const controller = new AbortController()
    this.running.set(job.id, controller)
    const dir = join(workDir(this.config), job.id)
    const heartbeat = setInterval(() => {
      // A lost lease (or a cancel from another process) stops this render: someone else owns the job now.
      if (!this.jobs.heartbeat(job.id, owner, this.config.leaseMs) || this.jobs.cancelRequested(job.id)) controller.abort(new RenderError('E_CANCELLED', 'cancelled'))
    }, Math.max(200, this.config.leaseMs / 3))
    this.events.emit('render.processing', this.jobs.get(job.id)!)
    try {
      const edit = this.editOf(job)
      await mkdir(dir, { recursive: true })
      const format = ((edit as { output?: { format?: string } }).output?.format ?? 'mp4').replace(/[^a-z0-9]/g, '')
      let last = 0
      const progress = (stage: JobStage, p: number) => {
        const now = Date.now()
        if (now - last < 500 && stage === 'rendering') return
        last = now
        this.jobs.progress(job.id, owner, stage, p)
      }
      const result = await this.renderer.render(edit, {
        out: join(dir, `${job.id}.${format}`),
        signal: controller.signal,
        // AI assets in the edit are generated for (and charged to) the job's account.
        owner: { accountId: job.accountId, keyId: job.keyId, sandbox: job.sandbox, admin: false, jobId: job.id },
        onProgress: (p: RenderProgress) => progress(p.stage === 'rendering' ? 'rendering' : p.stage, p.progress),
      })
      this.stats.frames += result.frames
      this.stats.seconds += result.renderMs / 1000
      this.stats.lastFps = result.frames / Math.max(1e-3, result.renderMs / 1000)
      progress('saving', 0.98)
      const url = await this.save(job.id, result.path)
      const poster = result.poster ? await this.save(job.id, result.poster) : undefined
      const thumbnail = result.thumbnail ? await this.save(job.id, result.thumbnail) : undefined
      // Charge and completion commit together: a crash before leaves neither (the job renders again and is
      // charged then), a crash after leaves both — never a double charge.
      const completed = this.jobs.transaction(() => {
        if (this.jobs.cancelRequested(job.id)) return false
        const credits = this.billing.settle(job.id, { seconds: result.duration, width: result.width, height: result.height })
        if (!this.jobs.complete(job.id, owner, { url, poster, thumbnail, duration: result.duration, credits, warnings: result.warnings })) throw new LeaseLost()
        return true
      })
      if (completed) this.events.emit('render.complete', this.jobs.get(job.id)!)
    } catch (e) {
      if (e instanceof LeaseLost) return // another worker owns the job now; its result stands
      const cancelled = controller.signal.aborted || (e instanceof RenderError && e.code === 'E_CANCELLED')
      const message = cancelled ? 'cancelled' : e instanceof Error ? e.message : String(e)
      if (!(e instanceof RenderError) && !cancelled) console.error(`[worker] job ${job.id} failed unexpectedly:`, e)
      this.billing.release(job.id)
      if (this.jobs.fail(job.id, owner, message)) this.events.emit('render.failed', this.jobs.get(job.id)!)
    } finally {
      clearInterval(heartbeat)
      this.running.delete(job.id)
      await rm(dir, { recursive: true, force: true })
    }
  }

  private editOf(job: Job): object {
    const edit = job.kind === 'stitch' ? stitchToEdit(job.request as StitchRequest) : structuredClone(job.request as object)
    if (job.sandbox) {
      const e = edit as { timeline: { tracks: object[] } }
      e.timeline.tracks = [{ clips: [WATERMARK] }, ...e.timeline.tracks]
    }
    return edit
  }

  /** Moves a finished file into storage and returns its public URL. */
  private async save(jobId: string, file: string): Promise<string> {
    const key = await this.storage.put(`${jobId}/${basename(file)}`, file)
    return fileUrl(this.config, key)
  }
}

/** Thrown inside the completing transaction to roll back when this worker no longer holds the job. */
class LeaseLost extends Error {}
