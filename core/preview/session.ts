import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { RenderError, type Warning } from '../errors.js'
import type { PlanReuse, RenderPlan } from '../plan/plan.js'
import { createFrameDrawer } from '../render/draw-frame.js'
import { createGLContext, destroyGLContext } from '../render/gl-context.js'
import { createGpu, type Gpu } from '../render/gpu.js'
import type { Painter } from '../render/painter.js'
import type { Edit } from '../schema/edit.js'
import { frameEdit } from '../schema/frame-edit.js'
import { FrameEncoder } from './encode-frame.js'
import { OpenSources } from './open-sources.js'
import { PreparedCache } from './prepared-cache.js'

/** What a preview session shows now. */
export interface PreviewState {
  /** Seconds the timeline lasts. */
  duration: number
  fps: number
  /** Frames of the timeline: `time` is drawn as frame round(time × fps), the last at most. */
  frames: number
  /** The picture's size (`output.scaleTo` when it asks for another). */
  width: number
  height: number
  warnings: Warning[]
  /** Clips whose prepared asset (and open sources) the last plan kept, and clips it prepared. */
  reused: number
  prepared: number
}

/**
 * An edit kept ready to draw any frame of, as a visual editor needs: sources prepared once, decoders warm, the GL
 * context and frame drawer kept between frames. Frames are the ones `render` draws for a still of the same edit
 * at the same time (`frameEdit`), through the same drawer — but for a long video clip in an edit scaled down after
 * drawing, kept at the picture's size (`OpenHints.keep`) — and scaled by one warm ffmpeg (FrameEncoder); `update`
 * plans a changed edit and keeps every clip whose prepared asset did not change. One operation at a time.
 */
export interface PreviewSession {
  readonly state: PreviewState
  /** True once closed — for a session in a render process of its own, also once that process is gone. */
  readonly ended: boolean
  /** The frame at `time` seconds, as PNG. An abort answers at once; the drawing it stops still ends first. */
  frame(time: number, signal?: AbortSignal): Promise<Buffer>
  update(edit: Edit, signal?: AbortSignal): Promise<PreviewState>
  close(): Promise<void>
}

/** Plans an edit for a session, borrowing its reusable parts. */
export type PlanWith = (edit: Edit, reuse: PlanReuse, signal?: AbortSignal) => Promise<RenderPlan>

export async function openPreviewSession(planWith: PlanWith, edit: Edit, o: { signal?: AbortSignal; tmpDir?: string } = {}): Promise<PreviewSession> {
  const tmpDir = await mkdtemp(join(o.tmpDir ?? tmpdir(), 'reelforge-preview-'))
  const cache = new PreparedCache()
  const sources = new OpenSources()
  const encoder = new FrameEncoder()
  let gpu: Gpu | undefined
  /** The painter on `gpu` and what it was made for: its shader programs are compiled as frames first need them. */
  let painter: { key: string; painter: Painter } | undefined
  let shown: { plan: RenderPlan; draw: ReturnType<typeof createFrameDrawer>; keys: Map<RenderPlan['layers'][number], string>; used: Set<string> } | undefined
  let state!: PreviewState
  // Operations run one after another; a caller that stops waiting does not stop the queue.
  let queue: Promise<unknown> = Promise.resolve()
  const enqueue = <T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> => {
    const run = queue.then(() => {
      if (signal?.aborted) throw cancelled(signal)
      return work()
    })
    queue = run.catch(() => {})
    return signal ? abortable(run, signal) : run
  }

  async function plan(next: Edit, signal?: AbortSignal): Promise<PreviewState> {
    const used = new Set<string>()
    let hits = 0
    let fresh: Gpu | undefined
    let freshPainter: typeof painter
    const reuse: PlanReuse = {
      tmpDir,
      gpu: async (frame) =>
        gpu && gpu.frame.width === frame.width && gpu.frame.height === frame.height
          ? gpu
          : (fresh = createGpu(await createGLContext(frame.width, frame.height), frame)),
      painter: (key, make) => {
        if (!fresh && painter?.key === key) return painter.painter
        freshPainter = { key, painter: make() }
        return freshPainter.painter
      },
      prepare: (key, run, warn) => {
        if (!used.has(key) && cache.has(key)) hits++
        return cache.prepare(key, run, warn, used)
      },
    }
    let planned: RenderPlan
    try {
      planned = await planWith(frameEdit(next, 0), reuse, signal)
    } catch (e) {
      freshPainter?.painter.dispose()
      if (fresh) destroyGLContext(fresh.gl)
      cache.retain(shown?.used ?? new Set())
      throw e
    }
    // Taken: a new picture size starts over on a new context; otherwise only what the new plan does not use goes.
    if (freshPainter) painter?.painter.dispose(), (painter = freshPainter)
    if (fresh) {
      sources.closeAll()
      if (gpu) destroyGLContext(gpu.gl)
      gpu = fresh
    }
    const previous = shown
    const picture = planned.scaleTo ?? planned.frame
    const keys = sources.keys(planned.layers, Math.min(picture.width / planned.frame.width, picture.height / planned.frame.height))
    shown = { plan: planned, draw: createFrameDrawer(planned), keys, used }
    sources.retain(new Set(keys.values()))
    if (previous) await retire(previous.plan)
    cache.retain(used)
    // Every clip's source opened now (pictures decoded, titles laid out), not when the playhead first reaches it.
    await sources.warm(planned.layers, keys, planned.fps, gpu!)
    const clips = planned.edit.timeline.tracks.reduce((n, t) => n + t.clips.length, 0)
    state = {
      duration: planned.timelineDuration,
      fps: planned.fps,
      frames: Math.max(1, Math.round(planned.timelineDuration * planned.fps)),
      width: picture.width,
      height: picture.height,
      warnings: planned.warnings,
      reused: hits,
      prepared: clips - hits,
    }
    return state
  }

  async function draw(time: number): Promise<Buffer> {
    const { plan: p, draw, keys } = shown!
    const i = Math.min(state.frames - 1, Math.max(0, Math.round(time * p.fps)))
    const live = []
    for (const layer of p.layers) {
      if (layer.startFrame <= i && i < layer.endFrame) live.push({ layer, source: await sources.at(layer, keys.get(layer)!, i, p.fps, gpu!) })
    }
    await draw(live, i / p.fps)
    return encoder.encode(p)
  }

  await plan(edit, o.signal).catch(async (e) => {
    await rm(tmpDir, { recursive: true, force: true })
    throw e
  })
  let ended = false
  return {
    get state() {
      return state
    },
    get ended() {
      return ended
    },
    frame: (time, signal) => enqueue(() => draw(time), signal),
    update: (next, signal) => enqueue(() => plan(next, signal), signal),
    close: () =>
      enqueue(async () => {
        ended = true
        sources.closeAll()
        encoder.close()
        if (shown) await retire(shown.plan)
        painter?.painter.dispose()
        cache.retain(new Set())
        if (gpu) destroyGLContext(gpu.gl)
        await rm(tmpDir, { recursive: true, force: true })
      }),
  }
}

/** Disposes a plan the session no longer shows: its painter, and its layers' compiled motion (GL programs). */
async function retire(plan: RenderPlan): Promise<void> {
  for (const layer of plan.layers) for (const m of [layer.transitionIn, layer.transitionOut, layer.effect]) m?.motion.dispose?.()
  await plan.dispose()
}

/** `work`, or the abort's reason as soon as `signal` aborts. */
function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(cancelled(signal))
    if (signal.aborted) return stop()
    signal.addEventListener('abort', stop, { once: true })
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop))
  })
}

/** An abort's error: a time limit's own `RenderError`, else (a client gone: a DOMException) `E_CANCELLED`, as a render's. */
const cancelled = (signal: AbortSignal): RenderError =>
  signal.reason instanceof RenderError ? signal.reason : new RenderError('E_CANCELLED', 'preview cancelled')
