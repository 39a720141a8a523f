import { randomUUID } from 'node:crypto'
import * as v from 'valibot'
import { RenderError, type Edit, type PreviewSession, type PreviewState } from '../../core/index.js'
import type { Principal } from '../accounts/keys.js'
import { FRAME_LIMIT, type RateLimiter } from '../accounts/rate-limit.js'
import { ServiceError } from '../errors.js'
import { check, type SubmitDeps } from '../jobs/submit.js'
import { parseBody } from '../lib/validate.js'
import { PreviewSlots, type Slot } from './slots.js'

export type PreviewDeps = SubmitDeps & { limiter: RateLimiter }

/** A preview session as the API shows it. */
export interface PreviewInfo extends Omit<PreviewState, 'warnings'> {
  id: string
  /** Counts the edits the session has had (1 after `POST`); each frame answer names the one it drew. */
  revision: number
  warnings: { path: string; message: string }[]
  /** Seconds without a request after which the session ends. */
  idle_timeout: number
}

interface Entry extends Slot {
  session: PreviewSession
  revision: number
}

const FrameAt = v.object({ time: v.pipe(v.number('must be a number (seconds)'), v.minValue(0, 'must be at least 0')) })

/**
 * Preview sessions (`/v1/previews`): an edit kept ready in a render process of its own so that any frame of it
 * is drawn at once — what a visual editor scrubs. Created, changed and drawn with the checks, rate limit
 * (`frame-preview`) and time limit of `POST /v1/render/frame`; a frame is that endpoint's frame, pixel for
 * pixel. Bounded per key and per server (429 with `Retry-After`); ended when idle. Another account's session
 * answers as a missing one.
 */
export class Previews {
  private readonly slots: PreviewSlots<Entry>

  constructor(private readonly d: PreviewDeps) {
    this.slots = new PreviewSlots(d.config.limits, (entry) => void entry.session.close())
  }

  async create(p: Principal, body: unknown, signal?: AbortSignal): Promise<PreviewInfo> {
    const preview = this.d.renderer.preview?.bind(this.d.renderer)
    if (!preview) throw new ServiceError('E_INTERNAL', 'this server has no preview sessions (its renderer cannot hold one)')
    const edit = await this.checked(p, body)
    // A full key or server refuses before the rate limit is taken, as a refused edit does.
    const release = this.slots.reserve(p)
    try {
      this.d.limiter.claim(p.keyId, FRAME_LIMIT, 'frame previews')
      const id = randomUUID()
      const session = await this.timed(signal, (s) => preview(edit, { signal: s, owner: p, yAxis: this.d.config.yAxis }))
      return this.info(this.slots.add({ id, owner: p, session, revision: 1 }))
    } finally {
      release()
    }
  }

  get(p: Principal, id: string): PreviewInfo {
    return this.info(this.find(p, id))
  }

  async update(p: Principal, id: string, body: unknown, signal?: AbortSignal): Promise<PreviewInfo> {
    const entry = this.find(p, id)
    const edit = await this.checked(p, body)
    this.d.limiter.claim(p.keyId, FRAME_LIMIT, 'frame previews')
    await this.use(entry, signal, (s) => entry.session.update(edit, s))
    entry.revision++
    return this.info(entry)
  }

  async frame(p: Principal, id: string, body: unknown, signal?: AbortSignal): Promise<{ png: Buffer; revision: number }> {
    const entry = this.find(p, id)
    const { time } = parseBody(FrameAt, body)
    this.d.limiter.claim(p.keyId, FRAME_LIMIT, 'frame previews')
    const revision = entry.revision
    return { png: await this.use(entry, signal, (s) => entry.session.frame(time, s)), revision }
  }

  async remove(p: Principal, id: string): Promise<void> {
    await this.slots.end(this.find(p, id))
  }

  /** Ends every session (the server is stopping). */
  async closeAll(): Promise<void> {
    await this.slots.endAll()
  }

  /** `p`'s session `id`; one whose process has gone since (a crash, a memory ceiling) ends now and is not found. */
  private find(p: Principal, id: string): Entry {
    const entry = this.slots.find(p, id)
    if (!entry.session.ended) return entry
    void this.slots.end(entry)
    return this.slots.find(p, id)
  }

  /** An edit checked as `POST /v1/render/frame` checks it. */
  private async checked(p: Principal, body: unknown): Promise<Edit> {
    const { edit } = await check(this.d, p, 'render', body)
    // The edit came back merged from the checks: its merge fields have nothing left to fill.
    return { ...edit, merge: undefined } as unknown as Edit
  }

  /** Runs one exchange of a session; a session whose process ended with it (a crash, a limit) is gone after. */
  private async use<T>(entry: Entry, signal: AbortSignal | undefined, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const done = this.slots.busy(entry)
    try {
      return await this.timed(signal, work)
    } finally {
      done()
      if (entry.session.ended) await this.slots.end(entry)
    }
  }

  /** `work` with `limits.frameSeconds` to finish (E_TIME_LIMIT after: the session's process is killed). */
  private async timed<T>(signal: AbortSignal | undefined, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const seconds = this.d.config.limits.frameSeconds
    const limit = new AbortController()
    const timer = setTimeout(
      () =>
        limit.abort(
          new RenderError(
            'E_TIME_LIMIT',
            `the preview took longer than its limit of ${seconds} s (limits.frameSeconds); simplify the edit or render it as a job`,
          ),
        ),
      seconds * 1000,
    )
    try {
      return await work(signal ? AbortSignal.any([signal, limit.signal]) : limit.signal)
    } finally {
      clearTimeout(timer)
    }
  }

  private info(entry: Entry): PreviewInfo {
    const { warnings, ...state } = entry.session.state
    return { id: entry.id, revision: entry.revision, ...state, warnings, idle_timeout: this.d.config.limits.previewIdleSeconds }
  }
}
