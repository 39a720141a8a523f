import { fork, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { frameProcessEnv, RenderError, type AiRunner, type Edit, type ImageGenerator, type RenderOptions, type RenderResult } from '../../core/index.js'
import { groupAlive, groupRssBytes, killGroup } from './process-group.js'
import { fromShape, toShape, type ChildConfig, type PreviewAnswer, type PreviewOp, type ToChild, type ToParent } from './protocol.js'
import { crashLine, type Running } from './running.js'

/** How a render process is bounded: its memory, and how long a render may ignore an abort before it is killed. */
export interface ProcessLimits {
  /** Resident bytes of the process and everything it started (ffmpeg, Xvfb); past it the render fails `E_MEMORY_LIMIT`. */
  memoryBytes?: number
  /** What the memory limit is called where users set it, for the error message. */
  memorySetting?: string
  /** An aborted render that has not stopped after this long is killed (default 1000 ms). */
  abortGraceMs?: number
}

let nextId = 0

/**
 * One render process: a forked Node process that leads its own process group, so everything it starts dies with
 * it. Renders run in it one at a time. An aborted render (cancel, time budget, client gone) ends the process:
 * asked first, killed with its group once it answers or after the grace (a long synchronous step cannot
 * listen); so does memory past the ceiling. The next render gets a fresh process.
 */
export class RenderProcess {
  alive = true
  private readonly child: ChildProcess
  private readonly ready: Promise<void>
  private running: Running | undefined
  private stderr = ''

  constructor(
    config: ChildConfig,
    /** What the child asks the parent to do: it owns the database, the wallet and the providers' keys. */
    private readonly parent: { generateImage: ImageGenerator; runAi: AiRunner },
    private readonly limits: ProcessLimits,
    onExit: () => void,
  ) {
    const js = fileURLToPath(new URL('./render-child.js', import.meta.url))
    // From source (tsx) there is only the .ts file; fork inherits the TypeScript loader from execArgv.
    const entry = existsSync(js) ? js : js.replace(/\.js$/, '.ts')
    this.child = fork(entry, [JSON.stringify(config)], {
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
      detached: true,
      env: frameProcessEnv(),
    })
    // A message to a process that is being killed fails (EPIPE); its exit says what happened.
    this.child.on('error', () => {})
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
      if (!r || r.id !== m.id || r.stopping) return
      if (m.type === 'progress') return ((r.stage = m.progress.stage), r.onProgress?.(m.progress))
      if (m.type === 'planned') return void this.planned(r, m.planned)
      if (r.signal?.aborted) {
        // A preview's client went away and its exchange stopped in time: the session goes on.
        if (r.soft && abortError(r.signal).code !== 'E_TIME_LIMIT') return this.settle(() => r.reject(abortError(r.signal!)))
        // An aborted render has cleaned up after itself now; the process still goes, with anything it started.
        return this.stop(r, abortError(r.signal))
      }
      // A retiring process (its X server died, or it crashed) exits next: never hand it another render.
      if (m.retiring) this.alive = false
      if (m.type === 'done') this.settle(() => r.resolve(m.result))
      else this.settle(() => r.reject(r.refusal ?? fromShape(m.error)))
    })
    this.child.on('exit', (code, signal) => {
      this.alive = false
      listening()
      onExit()
      const r = this.running
      if (!r) return
      if (r.stopping) return void this.whenGroupGone().then(() => this.settle(() => r.reject(r.stopping!)))
      if (r.signal?.aborted) return this.settle(() => r.reject(abortError(r.signal!)))
      const last = crashLine(this.stderr)
      const why = `the render process died (${signal ?? `exit code ${code}`}) while ${r.stage}${last ? `: ${last}` : ''}; the service is unaffected`
      this.settle(() => r.reject(new RenderError('E_RENDERER_CRASHED', why)))
    })
  }

  get pid(): number | undefined {
    return this.child.pid
  }

  get busy(): boolean {
    return !!this.running
  }

  async render(edit: Edit, opts: RenderOptions): Promise<RenderResult> {
    const { out, owner, baseDir, yAxis, cores, cpuEncoder } = opts
    const message = (id: string): ToChild => ({ type: 'render', id, edit, out, owner, baseDir, planned: !!opts.onPlanned, yAxis, cores, cpuEncoder })
    return (await this.run(message, opts)) as RenderResult
  }

  /**
   * One exchange of the preview session this process holds (it holds one for its whole life). An abort asks
   * the child to stop and the session lives on if it does within the grace; a time limit ends the process, as
   * does an abort not heeded in time.
   */
  async preview(op: PreviewOp, signal?: AbortSignal): Promise<PreviewAnswer> {
    return (await this.run((id) => ({ type: 'preview', id, op }), { signal, soft: true })) as PreviewAnswer
  }

  private async run(
    message: (id: string) => ToChild,
    opts: Pick<RenderOptions, 'signal' | 'onProgress' | 'onPlanned'> & { soft?: boolean },
  ): Promise<RenderResult | PreviewAnswer> {
    try {
      await (opts.signal ? Promise.race([this.ready, whenAborted(opts.signal)]) : this.ready)
    } catch (e) {
      // Aborted while the process was still starting: it was started for this work, and goes with it.
      this.alive = false
      this.kill()
      throw e
    }
    if (!this.alive) throw new RenderError('E_RENDERER_CRASHED', `the render process could not start: ${this.stderr.trim().split('\n').pop() ?? 'no output'}`)
    const id = `r${nextId++}`
    return new Promise<RenderResult | PreviewAnswer>((resolve, reject) => {
      const r: Running = {
        id,
        resolve,
        reject,
        onProgress: opts.onProgress,
        onPlanned: opts.onPlanned,
        signal: opts.signal,
        soft: opts.soft,
        stage: 'fetching',
        timers: [],
      }
      this.running = r
      this.hold(true)
      // Asked first, so a listening render removes its own files; then the process goes with everything it
      // started — at once when it answers, after the grace when it cannot (a long synchronous step).
      const onAbort = () => {
        this.send({ type: 'abort', id, reason: abortError(opts.signal!).message })
        r.timers.push(setTimeout(() => this.stop(r, abortError(opts.signal!)), this.limits.abortGraceMs ?? 1000))
      }
      if (opts.signal?.aborted) onAbort()
      else {
        opts.signal?.addEventListener('abort', onAbort, { once: true })
        // Once settled, a late abort (its client's connection closing after the answer) has nothing to stop.
        r.detach = () => opts.signal?.removeEventListener('abort', onAbort)
      }
      r.timers.push(setInterval(() => void this.checkMemory(r), 500))
      this.send(message(id))
    })
  }

  kill(): void {
    killGroup(this.child.pid)
  }

  /** Ends the running render with `error`: the process and everything it started are killed first. */
  private stop(r: Running, error: RenderError): void {
    if (this.running !== r || r.stopping) return
    r.stopping = error
    this.alive = false
    this.kill()
  }

  private async checkMemory(r: Running): Promise<void> {
    const limit = this.limits.memoryBytes
    if (!limit || !this.child.pid || this.running !== r) return
    const used = await groupRssBytes(this.child.pid)
    if (used === undefined || used <= limit) return
    const mb = (n: number) => Math.round(n / 2 ** 20)
    const setting = this.limits.memorySetting ? ` (${this.limits.memorySetting})` : ''
    this.stop(
      r,
      new RenderError('E_MEMORY_LIMIT', `the render used ${mb(used)} MB of memory while ${r.stage}, more than the limit of ${mb(limit)} MB${setting}`),
    )
  }

  /** The render is over: its timers stop and the process is released (idle processes never hold the host alive). */
  private settle(answer: () => void): void {
    const r = this.running
    if (!r) return
    for (const t of r.timers) clearTimeout(t)
    r.detach?.()
    this.running = undefined
    this.hold(false)
    answer()
  }

  /** Resolves once no process of the group is left, or after 2 s (a killed ffmpeg is gone before its files are removed). */
  async whenGroupGone(): Promise<void> {
    const pid = this.child.pid
    for (let i = 0; pid && i < 100 && groupAlive(pid); i++) await new Promise((r) => setTimeout(r, 20))
  }

  /** An idle render process never keeps the host process alive; a rendering one does. */
  private hold(busy: boolean) {
    const handles = [this.child.channel, this.child.stderr] as ({ ref?(): void; unref?(): void } | null | undefined)[]
    if (busy) this.child.ref(), handles.forEach((h) => h?.ref?.())
    else this.child.unref(), handles.forEach((h) => h?.unref?.())
  }

  private send(m: ToChild) {
    if (this.child.connected) this.child.send(m)
  }

  /** Runs the render's `onPlanned` here, in the parent (it owns the database), and tells the child to go on or stop. */
  private async planned(r: Running, planned: Parameters<NonNullable<Running['onPlanned']>>[0]) {
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

/** Why a signal aborted, as the RenderError the render fails with (a time limit keeps its own code). */
export const abortError = (signal: AbortSignal): RenderError =>
  signal.reason instanceof RenderError ? signal.reason : new RenderError('E_CANCELLED', String((signal.reason as Error)?.message ?? 'cancelled'))

/** Rejects with the abort's error once `signal` aborts (at once when it already has). */
const whenAborted = (signal: AbortSignal) =>
  new Promise<never>((_, reject) => {
    if (signal.aborted) reject(abortError(signal))
    else signal.addEventListener('abort', () => reject(abortError(signal)), { once: true })
  })
