import type { AiRunner, Compositor, Edit, ImageGenerator, PlanOptions, RenderOptions, RenderResult, ValidateOptions } from '../../core/index.js'
import { IsolatedPreview } from './isolated-preview.js'
import type { ChildConfig } from './protocol.js'
import { abortError, RenderProcess, type ProcessLimits } from './render-process.js'

export type { ChildConfig } from './protocol.js'
export type { ProcessLimits } from './render-process.js'

/**
 * A `Compositor` whose renders run in separate, long-lived Node processes — one per concurrent render — so a
 * crash while rendering (Xvfb dying makes Xlib call exit(), a GL driver fault, the OOM killer) fails that job
 * with `E_RENDERER_CRASHED` and the service carries on; the next render starts a fresh process. Each process
 * is bounded (`ProcessLimits`): an abort it does not heed in time, or memory past the ceiling, kills it and
 * everything it started. Validation and planning stay in this process (`local`).
 */
export class IsolatedRenderer implements Compositor {
  private readonly idle: RenderProcess[] = []
  private readonly all = new Set<RenderProcess>()
  /** Processes that hold a preview session: never handed a render. */
  private readonly previews = new Set<RenderProcess>()

  constructor(
    private readonly local: Compositor,
    /** Read when a process starts (the port may be chosen after construction). */
    private readonly config: () => ChildConfig,
    private readonly generateImage: ImageGenerator,
    private readonly runAi: AiRunner,
    private readonly limits: ProcessLimits = {},
  ) {}

  get registry() {
    return this.local.registry
  }
  validate(edit: unknown, opts?: ValidateOptions) {
    return this.local.validate(edit, opts)
  }
  plan(edit: Edit, opts?: Parameters<Compositor['plan']>[1]) {
    return this.local.plan(edit, opts)
  }

  async render(edit: Edit, opts: RenderOptions): Promise<RenderResult> {
    // A client gone before the render began (its reason a DOMException): cancelled, as any abort.
    if (opts.signal?.aborted) throw abortError(opts.signal)
    const process = this.idle.pop() ?? this.spawn()
    try {
      return await process.render(edit, opts)
    } finally {
      if (process.alive && !this.previews.has(process)) this.idle.push(process)
    }
  }

  /**
   * Opens a preview session in a render process of its own — an idle one if there is one (already started),
   * else a new one — that leaves the pool: it ends with the session, under the same memory ceiling and abort
   * grace as renders.
   */
  async preview(edit: Edit, opts: PlanOptions = {}): Promise<IsolatedPreview> {
    if (opts.signal?.aborted) throw abortError(opts.signal)
    const process = this.idle.pop() ?? this.spawn()
    this.previews.add(process)
    return IsolatedPreview.open(process, edit, opts)
  }

  /** The render processes alive now: busy (rendering), idle, or holding a preview session — what `/metrics` reports. */
  processes(): { busy: number; idle: number; previews: number } {
    const previews = [...this.previews].filter((p) => this.all.has(p)).length
    const busy = [...this.all].filter((p) => p.busy && !this.previews.has(p)).length
    return { busy, idle: this.all.size - busy - previews, previews }
  }

  /**
   * Stops every render process and what it started (running renders fail as cancelled), and waits until their
   * groups are gone (`whenGroupGone`): a server that stops leaves none behind — SIGKILL takes effect a moment after
   * it is sent, later still on a loaded machine.
   */
  async close(): Promise<void> {
    const all = [...this.all]
    for (const p of all) p.kill()
    await Promise.all(all.map((p) => p.whenGroupGone()))
  }

  private spawn(): RenderProcess {
    const p = new RenderProcess(this.config(), { generateImage: this.generateImage, runAi: this.runAi }, this.limits, () => {
      this.all.delete(p)
      this.previews.delete(p)
      const i = this.idle.indexOf(p)
      if (i >= 0) this.idle.splice(i, 1)
    })
    this.all.add(p)
    return p
  }
}
