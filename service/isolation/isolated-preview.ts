import { RenderError, type Edit, type PlanOptions, type PreviewSession, type PreviewState } from '../../core/index.js'
import type { PreviewAnswer } from './protocol.js'
import { abortError, type RenderProcess } from './render-process.js'

/**
 * A preview session held by a render process of its own: the child plans, keeps the sources and draws; this
 * side sends it the edits and times. A crash, a memory ceiling or a time limit ends the process and with it
 * only this session (`ended`); closing it kills the process and whatever it started (its decoders).
 */
export class IsolatedPreview implements PreviewSession {
  /** Exchanges go one after another (the process runs one at a time); a caller that stops waiting leaves the queue. */
  private queue: Promise<unknown> = Promise.resolve()

  private constructor(
    private readonly process: RenderProcess,
    private current: PreviewState,
  ) {}

  /** Opens a session on `edit` in `process`, which is the session's from now on (killed if opening fails). */
  static async open(process: RenderProcess, edit: Edit, opts: PlanOptions): Promise<IsolatedPreview> {
    try {
      const answer = await process.preview({ kind: 'open', edit, owner: opts.owner, baseDir: opts.baseDir, yAxis: opts.yAxis }, opts.signal)
      return new IsolatedPreview(process, stateOf(answer))
    } catch (e) {
      process.kill()
      throw e
    }
  }

  get state(): PreviewState {
    return this.current
  }

  /** The process is gone (closed, crashed, killed at a limit): every exchange fails from now on. */
  get ended(): boolean {
    return !this.process.alive
  }

  async frame(time: number, signal?: AbortSignal): Promise<Buffer> {
    const answer = await this.next(() => this.process.preview({ kind: 'frame', time }, signal), signal)
    if (!('png' in answer)) throw new RenderError('E_RENDERER_CRASHED', 'the render process answered a frame without one')
    return Buffer.from(answer.png.buffer, answer.png.byteOffset, answer.png.byteLength)
  }

  async update(edit: Edit, signal?: AbortSignal): Promise<PreviewState> {
    this.current = stateOf(await this.next(() => this.process.preview({ kind: 'update', edit }, signal), signal))
    return this.current
  }

  /**
   * Runs `exchange` once those before it have ended. Waiting in the queue, an abort answers at once and the
   * exchange is skipped; once it runs, the process settles it (RenderProcess.preview: kept, or killed).
   */
  private next<T>(exchange: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    let started = false
    const run = this.queue.then(() => {
      // A client gone while its exchange waited (its reason a DOMException): cancelled, as any abort.
      if (signal?.aborted) throw abortError(signal)
      if (!this.process.alive) throw new RenderError('E_RENDERER_CRASHED', 'the preview session ended: its render process is gone')
      started = true
      return exchange()
    })
    this.queue = run.catch(() => {})
    if (!signal) return run
    return new Promise<T>((resolve, reject) => {
      run.then(resolve, reject)
      signal.addEventListener('abort', () => started || reject(abortError(signal)), { once: true })
    })
  }

  async close(): Promise<void> {
    this.process.alive = false
    this.process.kill()
  }
}

const stateOf = (answer: PreviewAnswer): PreviewState => {
  if (!('state' in answer)) throw new RenderError('E_RENDERER_CRASHED', 'the render process answered without the preview state')
  return answer.state
}
