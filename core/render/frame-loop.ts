import { RenderError } from '../errors.js'
import type { FrameSink, FrameSource, LayerState } from '../plugin.js'
import { hookError } from '../plugin-driver.js'
import type { RenderPlan } from '../plan/plan.js'
import type { LayerMotion, LayerPlan } from '../plan/layers.js'
import type { Affine } from './affine.js'
import { FramePool } from './frame-pool.js'
import { KEY_FIELDS, resetState, sameKey, writeKey } from './layer-state.js'
import { layerMatrix, neutralState } from './layout.js'
import type { DrawCall } from './painter.js'
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
 * whose layers are all static and unchanged is not drawn again: the previous buffer is written twice.
 */
export async function renderFrames(plan: RenderPlan, sink: FrameSink, opts: LoopOptions): Promise<{ frames: number; drawn: number }> {
  const { frames, firstFrame, fps, painter, frame } = plan
  const buffers = opts.buffers ?? 3
  const pool = new FramePool(plan.yuv?.bytes ?? frame.width * frame.height * 4, buffers)
  const reader = plan.yuv ?? painter
  const scheduler = new Scheduler(plan.layers, plan.gpu, Math.ceil(fps), fps)
  const state = neutralState()
  const matrix: Affine = [0, 0, 0, 0, 0, 0]
  const call: DrawCall = { texture: undefined!, matrix, opacity: 1, quad: [0, 0, 1, 1], uv: [0, 0, 1, 1], filter: -1, wipe: [0, 0, 0, 0] }
  const lumaState = neutralState()
  const lumaMatrix: Affine = [0, 0, 0, 0, 0, 0]

  /** The luma matte masking `layer` at time `t`, drawn offscreen, or undefined. */
  async function lumaMask(live: Awaited<ReturnType<Scheduler['at']>>, layer: LayerPlan, t: number) {
    if (!layer.lumas.length) return undefined
    const entry = live.find((l) => l.layer.role === 'luma' && layer.lumas.includes(l.layer))
    if (!entry) return undefined
    const local = t - entry.layer.start
    const pending = frameOf(entry.layer, entry.source, local)
    const texture = pending instanceof Promise ? await pending : pending
    if (!texture) return undefined
    evaluate(entry.layer, local, lumaState)
    layerMatrix(frame, entry.layer.fitted, entry.layer.position, lumaState, lumaMatrix)
    const mask = painter.offscreen(() =>
      painter.draw({
        texture,
        matrix: lumaMatrix,
        opacity: 1,
        quad: entry.layer.quad,
        uv: entry.layer.uv,
        hold: entry.layer.hold,
        filter: -1,
        wipe: [0, 0, 0, 0],
      }),
    )
    painter.reset()
    return mask
  }

  let key = new Float64Array(64)
  let prevKey = new Float64Array(64)
  let prevCount = -1
  let last: Uint8Array | undefined
  let writeError: unknown
  let drawn = 0
  const started = performance.now()
  let reported = 0

  try {
    for (let n = 0; n < frames; n++) {
      if (opts.signal.aborted) throw new RenderError('E_CANCELLED', 'render cancelled')
      if (writeError) throw writeError
      const i = firstFrame + n
      const t = i / fps
      const live = await scheduler.at(i)

      // 1. Evaluate states into the frame key; a frame is reusable if nothing animated and the key matches.
      if (key.length < live.length * KEY_FIELDS) (key = new Float64Array(live.length * KEY_FIELDS * 2)), (prevKey = new Float64Array(key.length))
      let reusable = last !== undefined && live.length === prevCount
      for (let j = 0; j < live.length; j++) {
        const layer = live[j]!.layer
        evaluate(layer, t - layer.start, state)
        const k = j * KEY_FIELDS
        writeKey(key, k, layer.id, state)
        if (reusable) {
          // A GLSL transition changes the frame without changing the layer's state.
          if (layer.asset.static !== true || glslTransition(layer, t - layer.start) || !sameKey(key, prevKey, k)) reusable = false
        }
      }

      // 2. Draw (or reuse) the frame.
      let buffer: Uint8Array
      if (reusable) buffer = last!
      else {
        painter.begin()
        for (let j = 0; j < live.length; j++) {
          const { layer, source } = live[j]!
          if (layer.role === 'luma') continue // drawn only as the matte of its content layer
          const local = t - layer.start
          evaluate(layer, local, state)
          if (state.opacity <= 0 || state.clipRight <= state.clipLeft || state.clipBottom <= state.clipTop) continue
          const pending = frameOf(layer, source, local)
          const texture = pending instanceof Promise ? await pending : pending
          if (!texture) continue // e.g. a video that ended before its clip: nothing to draw
          // A whole-frame (GLSL) transition needs the frame without the layer, then with it.
          const blend = glslTransition(layer, local)
          const without = blend ? painter.snapshot(0) : undefined
          call.mask = await lumaMask(live, layer, t)
          call.texture = texture
          layerMatrix(frame, layer.fitted, layer.position, state, matrix)
          call.opacity = Math.min(1, state.opacity)
          // A reveal's clip edge cuts the layer there; an edge left where it was (0 or 1) cuts nothing, so a
          // quad reaching past the box (an asset's bleed) keeps its margin on that side.
          call.quad[0] = state.clipLeft > 0 ? Math.max(layer.quad[0], state.clipLeft) : layer.quad[0]
          call.quad[1] = state.clipTop > 0 ? Math.max(layer.quad[1], state.clipTop) : layer.quad[1]
          call.quad[2] = state.clipRight < 1 ? Math.min(layer.quad[2], state.clipRight) : layer.quad[2]
          call.quad[3] = state.clipBottom < 1 ? Math.min(layer.quad[3], state.clipBottom) : layer.quad[3]
          call.uv = layer.uv
          call.hold = layer.hold
          call.filter = layer.filter
          call.wipe[0] = state.wipeFrom === 0 ? 0 : 1
          call.wipe[1] = state.wipePosition
          call.wipe[2] = state.wipeSoftness
          call.wipe[3] = state.wipeFrom
          painter.draw(call)
          if (blend && without) {
            const withLayer = painter.snapshot(1)
            const { motion, plugin, path } = blend.transition
            try {
              if (blend.direction === 'in') motion.blend!(without, withLayer, blend.progress)
              else motion.blend!(withLayer, without, blend.progress)
            } catch (e) {
              throw hookError(plugin, 'blend', path, e)
            }
            painter.reset()
          }
        }
        buffer = await pool.acquire()
        reader.read(buffer)
        drawn++
      }
      ;[key, prevKey] = [prevKey, key]
      prevCount = live.length
      last = buffer

      opts.onFrame?.(i, buffer)

      // 3. Hand it to the encoder without waiting for it to finish; the pool bounds what is in flight.
      await pool.room(buffers)
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
    return { frames, drawn }
  } finally {
    await scheduler.close()
  }
}

/**
 * A layer's state at clip-local time `t`: its tracks, then the effect (whole clip), then the in and out
 * transitions. HOT: no allocation.
 */
export function evaluate(layer: LayerPlan, t: number, s: LayerState): void {
  // Everything back to neutral first, so a field no track drives starts every frame from its default.
  resetState(s)
  s.opacity = layer.opacity(t)
  s.offsetX = layer.offsetX(t)
  s.offsetY = layer.offsetY(t)
  s.scale = layer.scale(t)
  s.rotate = layer.rotate(t)
  s.skewX = layer.skewX(t)
  s.skewY = layer.skewY(t)
  if (layer.effect) apply(layer.effect, s, clamp01(t / layer.length))
  const tin = layer.transitionIn
  if (tin && t < tin.duration) apply(tin, s, clamp01(t / tin.duration))
  const tout = layer.transitionOut
  if (tout && t > layer.length - tout.duration) apply(tout, s, clamp01((t - (layer.length - tout.duration)) / tout.duration))
}

/** HOT: a transition's or effect's `apply`; what it throws names the plugin and the clip. */
function apply(m: LayerMotion, s: LayerState, progress: number): void {
  try {
    m.motion.apply(s, progress)
  } catch (e) {
    throw hookError(m.plugin, 'apply', m.path, e)
  }
}

/** HOT: the texture a live layer's source shows at clip-local `t`; what its `frame` throws or rejects with names the clip. */
function frameOf(layer: LayerPlan, source: FrameSource, t: number): ReturnType<FrameSource['frame']> {
  try {
    const pending = source.frame(t)
    if (!(pending instanceof Promise)) return pending
    return pending.catch((e: unknown) => {
      throw frameError(layer, e)
    })
  } catch (e) {
    throw frameError(layer, e)
  }
}

const frameError = (layer: LayerPlan, e: unknown) => hookError({ kind: 'asset', name: layer.type }, 'frame', `${layer.path}.asset`, e)

const clamp01 = (x: number) => (x < 0 ? 0 : Math.min(x, 1))

/** The GLSL transition running on `layer` at local time `t`, with its progress, if any. */
function glslTransition(layer: LayerPlan, t: number) {
  const tin = layer.transitionIn
  if (tin?.motion.blend && t < tin.duration) return { transition: tin, direction: 'in' as const, progress: clamp01(t / tin.duration) }
  const tout = layer.transitionOut
  if (tout?.motion.blend && t > layer.length - tout.duration)
    return { transition: tout, direction: 'out' as const, progress: clamp01((t - (layer.length - tout.duration)) / tout.duration) }
  return undefined
}
