import { RenderError } from '../errors.js'
import type { FrameSink } from '../plugin.js'
import { hookError, unlessAborted } from '../plugin-driver.js'
import type { RenderPlan } from '../plan/plan.js'
import { CoverFrames } from './cover-frames.js'
import { createFrameDrawer, evaluate, glslTransition } from './draw-frame.js'
import { FramePool } from './frame-pool.js'
import { KEY_FIELDS, sameKey, writeKey } from './layer-state.js'
import { neutralState } from './layout.js'
import { Scheduler } from './scheduler.js'

/** Progress of the frame loop, reported a few times a second. */
export interface FrameProgress {
  frame: number
  frames: number
  /** Frames per second over the whole render so far. */
  fps: number
  elapsedMs: number
  etaMs: number
}

export interface LoopOptions {
  signal: AbortSignal
  onProgress?: (p: FrameProgress) => void
  /** Frames compositing may run ahead of the encoder. */
  buffers?: number
  /** Called with each written frame (timeline frame index) as the sink gets it — RGBA unless `plan.yuv` packs I420; valid only during the call. */
  onFrame?: (frame: number, pixels: Uint8Array) => void
}

/**
 * The hot loop: for each frame, evaluate every visible layer's state, draw, read back, hand to the sink.
 * Compositing of frame N+1 overlaps ffmpeg encoding frame N (a small pool of buffers in flight). A frame
 * whose layers are all static and unchanged is not drawn again: the previous buffer is written twice. A frame
 * one opaque layer covers (cover.ts) is not drawn on the GPU either: its pixels go to the sink as they are, or
 * scaled on the CPU (cover-frames.ts).
 */
export async function renderFrames(plan: RenderPlan, sink: FrameSink, opts: LoopOptions): Promise<{ frames: number; drawn: number; direct: number }> {
  const { frames, firstFrame, fps, frame } = plan
  const buffers = opts.buffers ?? 3
  const pool = new FramePool(plan.yuv?.bytes ?? frame.width * frame.height * 4, buffers)
  const reader = plan.yuv ?? plan.painter
  const covers = new CoverFrames(plan)
  const scheduler = new Scheduler(plan.layers, plan.gpu, Math.ceil(fps), fps, covers.takesI420 ? { i420: true } : undefined)
  // After each await: a source, the encoder or an open that answered only after a cancel finds the plan (its GL,
  // the sink) gone, and must not touch it.
  const stopIfCancelled = () => {
    if (opts.signal.aborted) throw new RenderError('E_CANCELLED', 'render cancelled')
  }
  const draw = createFrameDrawer(plan, stopIfCancelled)
  // A free buffer, checked before anything is drawn into it: a cancelled render's sources are closed by then, and
  // a photo's memory may already belong to another render in this process (wasm-pixels.ts).
  const acquire = () => pool.acquire().then((b) => (stopIfCancelled(), b))
  const state = neutralState()

  let key = new Float64Array(64)
  let prevKey = new Float64Array(64)
  let prevCount = -1
  let last: Uint8Array | undefined
  let writeError: unknown
  let drawn = 0
  const started = performance.now()
  let reported = 0

  // Raced with the signal: a source's frame, an open or the encoder's write that never answers does not hold a
  // cancelled render (the loop, if it ever wakes, stops at its next check; its sources are closed below).
  const loop = async () => {
    for (let n = 0; n < frames; n++) {
      stopIfCancelled()
      if (writeError) throw writeError
      const i = firstFrame + n
      const t = i / fps
      const live = await scheduler.at(i)
      stopIfCancelled()

      // 1. Evaluate states into the frame key; a frame is reusable if nothing animated and the key matches.
      if (key.length < live.length * KEY_FIELDS) (key = new Float64Array(live.length * KEY_FIELDS * 2)), (prevKey = new Float64Array(key.length))
      let reusable = last !== undefined && live.length === prevCount
      covers.begin()
      for (let j = 0; j < live.length; j++) {
        const { layer, source } = live[j]!
        evaluate(layer, t - layer.start, state)
        const k = j * KEY_FIELDS
        writeKey(key, k, layer.id, state)
        covers.see(j, layer, source, state, t - layer.start)
        if (reusable) {
          // A GLSL transition changes the frame without changing the layer's state.
          if (layer.asset.static !== true || glslTransition(layer, t - layer.start) || !sameKey(key, prevKey, k)) reusable = false
        }
      }

      // 2. Draw (or reuse) the frame.
      let buffer: Uint8Array
      const covered = reusable ? undefined : await covers.frame(live, t, acquire)
      stopIfCancelled()
      if (reusable) buffer = last!
      else if (covered) buffer = covered
      else {
        await draw(live, t)
        buffer = await acquire()
        reader.read(buffer)
        drawn++
      }
      ;[key, prevKey] = [prevKey, key]
      prevCount = live.length
      last = buffer

      opts.onFrame?.(i, buffer)

      // 3. Hand it to the encoder without waiting for it to finish; the pool bounds what is in flight.
      await pool.room(buffers)
      stopIfCancelled()
      let written: void | Promise<void>
      try {
        written = sink.write(buffer)
      } catch (e) {
        throw hookError(plan.output, 'write', 'output', e)
      }
      pool.track(buffer, Promise.resolve(written)).catch((e) => (writeError ??= hookError(plan.output, 'write', 'output', e)))

      const now = performance.now()
      if (opts.onProgress && (now - reported > 250 || n === frames - 1)) {
        reported = now
        const elapsedMs = now - started
        const fpsNow = ((n + 1) * 1000) / Math.max(1, elapsedMs)
        opts.onProgress({ frame: n + 1, frames, fps: fpsNow, elapsedMs, etaMs: ((frames - n - 1) / fpsNow) * 1000 })
      }
    }
    await pool.drain()
    if (writeError) throw writeError
    return { frames, drawn, direct: covers.count }
  }
  try {
    return await unlessAborted(loop(), opts.signal)
  } finally {
    await scheduler.close(opts.signal)
  }
}
