import { fork, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import {
  RenderError,
  type AiAnswer,
  type AiAsk,
  type AiRunner,
  type AiTask,
  type Compositor,
  type Edit,
  type ImageGenerator,
  type ImageRequest,
  type PlannedRender,
  type RenderOptions,
  type RenderProgress,
  type RenderResult,
} from '../../core/index.js'
import type { FilePolicy, NetworkPolicy } from '../../plugins/index.js'
import type { S3Config } from '../config.js'

/** What the render process is built from (plain data: it crosses a process boundary). */
export interface ChildConfig {
  cacheDir: string
  network: NetworkPolicy
  /** Local files sources may name; undefined: any (library use — stated explicitly, never by omission). */
  files: FilePolicy | undefined
  baseUrl: string
  /** Local storage's directory, so the service's own file URLs are read from disk… */
  filesDir?: string
  /** …or the object storage they are read from. */
  s3?: S3Config
  /**
   * Modules (paths or file URLs) each render process imports for plugins beyond the built-in ones, each
   * default-exporting a plugin or a list of them: plugins are code, so they cannot cross as data.
   */
  pluginModules?: string[]
}

type ErrorShape = { code: string; message: string; data?: Record<string, unknown> }

/** An error as plain data for the other process; `fallback` is the code of anything not a RenderError. */
export const toShape = (e: unknown, fallback: string): ErrorShape =>
  e instanceof RenderError ? { code: e.code, message: e.message, data: e.data } : { code: fallback, message: e instanceof Error ? e.message : String(e) }
/** The RenderError an `ErrorShape` stands for. */
export const fromShape = (s: ErrorShape) => new RenderError(s.code as never, s.message, s.data)
export type ToChild =
  | {
      type: 'render'
      id: string
      edit: Edit
      out: string
      owner?: unknown
      baseDir?: string
      planned?: boolean
      yAxis?: 'down' | 'up'
      cores?: number
      cpuEncoder?: boolean
    }
  /** The answer to `planned`: go on, or stop with `error`. */
  | { type: 'planned'; id: string; error?: ErrorShape }
  | { type: 'abort'; id: string; reason: string }
  | { type: 'generated'; ask: number; path?: string; error?: ErrorShape }
  | { type: 'ai-answer'; ask: number; answer?: AiAnswer<AiTask>; error?: ErrorShape }
export type ToParent =
  | { type: 'ready' }
  | { type: 'progress'; id: string; progress: RenderProgress }
  /** The render is planned (its `onPlanned`): it waits for the answer before drawing anything. */
  | { type: 'planned'; id: string; planned: PlannedRender }
  | { type: 'done'; id: string; result: RenderResult; retiring?: boolean }
  | { type: 'failed'; id: string; error: ErrorShape; retiring?: boolean }
  | { type: 'generate'; ask: number; request: ImageRequest; path: string; owner?: unknown }
  /** An AI task of an asset (voice-over, prompted video): run, charged and stored by the parent. */
  | { type: 'ai'; ask: number; task: AiTask; request: AiAsk<AiTask>; path: string; owner?: unknown }

interface Running {
  resolve(r: RenderResult): void
  reject(e: Error): void
  onProgress?: (p: RenderProgress) => void
  onPlanned?: RenderOptions['onPlanned']
  /** What `onPlanned` threw: the render fails with this very error (a ServiceError keeps its code). */
  refusal?: Error
  signal?: AbortSignal
  /** The last stage the render reported, for a process that dies without a word. */
  stage: RenderProgress['stage']
}

/**
 * A `Compositor` whose renders run in a separate, long-lived Node process — one per concurrent render —
 * so a crash while rendering (Xvfb dying makes Xlib call exit(), a GL driver fault, the OOM killer) fails
 * that job with `E_RENDERER_CRASHED` and the service carries on; the next render starts a fresh process.
 * Validation and planning stay in this process (`local`).
 */
export class IsolatedRenderer implements Compositor {
  private readonly idle: Worker[] = []
  private readonly all = new Set<Worker>()

  constructor(
    private readonly local: Compositor,
    /** Read when a process starts (the port may be chosen after construction). */
    private readonly config: () => ChildConfig,
    private readonly generateImage: ImageGenerator,
    private readonly runAi: AiRunner,
  ) {}

  get registry() {
    return this.local.registry
  }
  validate(edit: unknown) {
    return this.local.validate(edit)
  }
  plan(edit: Edit, opts?: Parameters<Compositor['plan']>[1]) {
    return this.local.plan(edit, opts)
  }

  async render(edit: Edit, opts: RenderOptions): Promise<RenderResult> {
    opts.signal?.throwIfAborted()
    const worker = this.idle.pop() ?? this.spawn()
    try {
      return await worker.render(edit, opts)
    } finally {
      if (worker.alive) this.idle.push(worker)
    }
  }

  /** Stops every render process (running renders fail as cancelled). */
  close(): void {
    for (const w of this.all) w.kill()
  }

  private spawn(): Worker {
    const w = new Worker(this.config(), { generateImage: this.generateImage, runAi: this.runAi }, () => {
      this.all.delete(w)
      const i = this.idle.indexOf(w)
      if (i >= 0) this.idle.splice(i, 1)
    })
    this.all.add(w)
    return w
  }
}

let nextId = 0

/** One render process. */
class Worker {
  alive = true
  private readonly child: ChildProcess
  private readonly ready: Promise<void>
  private running: (Running & { id: string }) | undefined
  private stderr = ''

  constructor(
    config: ChildConfig,
    /** What the child asks the parent to do: it owns the database, the wallet and the providers' keys. */
    private readonly parent: { generateImage: ImageGenerator; runAi: AiRunner },
    onExit: () => void,
  ) {
    const js = fileURLToPath(new URL('./render-child.js', import.meta.url))
    // From source (tsx) there is only the .ts file; fork inherits the TypeScript loader from execArgv.
    const entry = existsSync(js) ? js : js.replace(/\.js$/, '.ts')
    this.child = fork(entry, [JSON.stringify(config)], { serialization: 'advanced', stdio: ['ignore', 'inherit', 'pipe', 'ipc'] })
    this.child.stderr!.on('data', (d: Buffer) => {
      this.stderr = (this.stderr + d.toString()).slice(-4000)
      process.stderr.write(d)
    })
    let listening!: () => void
    this.ready = new Promise<void>((resolve) => (listening = resolve))
    // Held while starting (a render is waiting for it), released when idle.
    this.hold(true)
    this.child.on('message', (m: ToParent) => {
      if (m.type === 'ready') return (this.hold(!!this.running), listening())
      if (m.type === 'generate') return void this.generate(m)
      if (m.type === 'ai') return void this.ai(m)
      const r = this.running
      if (!r || r.id !== m.id) return
      if (m.type === 'progress') return ((r.stage = m.progress.stage), r.onProgress?.(m.progress))
      if (m.type === 'planned') return void this.planned(r, m.planned)
      this.running = undefined
      this.hold(false)
      // A retiring process (its X server died, or it crashed) exits next: never hand it another render.
      if (m.retiring) this.alive = false
      if (m.type === 'done') r.resolve(m.result)
      else r.reject(r.refusal ?? fromShape(m.error))
    })
    this.child.on('exit', (code, signal) => {
      this.alive = false
      listening()
      onExit()
      const r = this.running
      this.running = undefined
      if (!r) return
      if (r.signal?.aborted) return r.reject(new RenderError('E_CANCELLED', 'cancelled'))
      const last = crashLine(this.stderr)
      r.reject(
        new RenderError(
          'E_RENDERER_CRASHED',
          `the render process died (${signal ?? `exit code ${code}`}) while ${r.stage}${last ? `: ${last}` : ''}; the service is unaffected`,
        ),
      )
    })
  }

  async render(edit: Edit, opts: RenderOptions): Promise<RenderResult> {
    await this.ready
    if (!this.alive) throw new RenderError('E_RENDERER_CRASHED', `the render process could not start: ${this.stderr.trim().split('\n').pop() ?? 'no output'}`)
    const id = `r${nextId++}`
    return new Promise<RenderResult>((resolve, reject) => {
      this.running = { id, resolve, reject, onProgress: opts.onProgress, onPlanned: opts.onPlanned, signal: opts.signal, stage: 'fetching' }
      this.hold(true)
      const abort = () => this.send({ type: 'abort', id, reason: String((opts.signal?.reason as Error)?.message ?? 'cancelled') })
      opts.signal?.addEventListener('abort', abort, { once: true })
      this.send({
        type: 'render',
        id,
        edit,
        out: opts.out,
        owner: opts.owner,
        baseDir: opts.baseDir,
        planned: !!opts.onPlanned,
        yAxis: opts.yAxis,
        cores: opts.cores,
        cpuEncoder: opts.cpuEncoder,
      })
    })
  }

  /** An idle render process never keeps the host process alive; a rendering one does. */
  private hold(busy: boolean) {
    const handles = [this.child.channel, this.child.stderr] as ({ ref?(): void; unref?(): void } | null | undefined)[]
    if (busy) this.child.ref(), handles.forEach((h) => h?.ref?.())
    else this.child.unref(), handles.forEach((h) => h?.unref?.())
  }

  kill(): void {
    this.child.kill('SIGKILL')
  }

  private send(m: ToChild) {
    if (this.child.connected) this.child.send(m)
  }

  /** Runs the render's `onPlanned` here, in the parent (it owns the database), and tells the child to go on or stop. */
  private async planned(r: Running & { id: string }, planned: PlannedRender) {
    try {
      await r.onPlanned?.(planned)
      this.send({ type: 'planned', id: r.id })
    } catch (e) {
      r.refusal = e instanceof Error ? e : new Error(String(e))
      this.send({ type: 'planned', id: r.id, error: toShape(e, 'E_INTERNAL') })
    }
  }

  private async generate(m: Extract<ToParent, { type: 'generate' }>) {
    const signal = this.running?.signal ?? new AbortController().signal
    try {
      const path = await this.parent.generateImage(m.request, { path: m.path, signal, tmpDir: '', owner: m.owner })
      this.send({ type: 'generated', ask: m.ask, path })
    } catch (e) {
      this.send({ type: 'generated', ask: m.ask, error: toShape(e, 'E_PROVIDER_FAILED') })
    }
  }

  private async ai(m: Extract<ToParent, { type: 'ai' }>) {
    const signal = this.running?.signal ?? new AbortController().signal
    try {
      const answer = await this.parent.runAi(m.task, m.request, { path: m.path, signal, tmpDir: '', owner: m.owner })
      this.send({ type: 'ai-answer', ask: m.ask, answer })
    } catch (e) {
      this.send({ type: 'ai-answer', ask: m.ask, error: toShape(e, 'E_PROVIDER_FAILED') })
    }
  }
}

/**
 * The line of a dead render process's stderr that says why: Node ends a crash with its version and the stack,
 * which say nothing to a user — the last line that is neither.
 */
export function crashLine(stderr: string): string | undefined {
  return stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !/^Node\.js v\d/.test(l) && !/^at\s/.test(l) && !/^\^+$/.test(l))
    .pop()
}
