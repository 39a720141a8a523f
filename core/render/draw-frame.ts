import type { FrameSource, LayerState } from '../plugin.js'
import { hookError } from '../plugin-driver.js'
import type { RenderPlan } from '../plan/plan.js'
import type { LayerMotion, LayerPlan } from '../plan/layers.js'
import type { Affine } from './affine.js'
import { finiteState, LAYER_STATE_KEYS, resetState } from './layer-state.js'
import { layerMatrix, neutralState } from './layout.js'
import type { DrawCall } from './painter.js'
import type { LiveLayer } from './scheduler.js'

/**
 * Draws one frame into the plan's painter: each live layer (bottom first) at timeline time `t`, with its tracks,
 * motion, luma matte and whole-frame transitions. The frame loop and preview sessions both draw through it, so a
 * previewed frame is the rendered one. Allocates its scratch state once; HOT after that. `awake` runs after each
 * source that answered later (the frame loop's check of its signal: the plan may be gone by then).
 */
export function createFrameDrawer(plan: RenderPlan, awake: () => void = () => {}): (live: readonly LiveLayer[], t: number) => Promise<void> {
  const { painter, frame } = plan
  const state = neutralState()
  const matrix: Affine = [0, 0, 0, 0, 0, 0]
  const call: DrawCall = { texture: undefined!, matrix, opacity: 1, quad: [0, 0, 1, 1], uv: [0, 0, 1, 1], filter: -1, wipe: [0, 0, 0, 0] }
  const lumaState = neutralState()
  const lumaMatrix: Affine = [0, 0, 0, 0, 0, 0]

  /** The luma matte masking `layer` at time `t`, drawn offscreen, or undefined. */
  async function lumaMask(live: readonly LiveLayer[], layer: LayerPlan, t: number) {
    if (!layer.lumas.length) return undefined
    const entry = live.find((l) => l.layer.role === 'luma' && layer.lumas.includes(l.layer))
    if (!entry) return undefined
    const local = t - entry.layer.start
    const pending = frameOf(entry.layer, entry.source, local)
    const texture = pending instanceof Promise ? await pending : pending
    if (pending instanceof Promise) awake()
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

  return async (live, t) => {
    painter.begin()
    for (let j = 0; j < live.length; j++) {
      const { layer, source } = live[j]!
      if (layer.role === 'luma') continue // drawn only as the matte of its content layer
      const local = t - layer.start
      evaluate(layer, local, state)
      if (state.opacity <= 0 || state.clipRight <= state.clipLeft || state.clipBottom <= state.clipTop) continue
      const pending = frameOf(layer, source, local)
      const texture = pending instanceof Promise ? await pending : pending
      if (pending instanceof Promise) awake()
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

/**
 * HOT: a transition's or effect's `apply`; what it throws names the plugin and the clip. A state it leaves not a
 * finite number (a NaN opacity was drawn fully opaque, a NaN zoom nowhere) fails the same way: one sum a call.
 */
function apply(m: LayerMotion, s: LayerState, progress: number): void {
  try {
    m.motion.apply(s, progress)
  } catch (e) {
    throw hookError(m.plugin, 'apply', m.path, e)
  }
  if (!finiteState(s)) {
    const field = LAYER_STATE_KEYS.find((k) => !Number.isFinite(s[k]))
    throw hookError(m.plugin, 'apply', m.path, new Error(`left ${field} ${s[field!]} at progress ${progress.toFixed(3)}: a finite number is needed`))
  }
}

/** HOT: the texture a live layer's source shows at clip-local `t`; what its `frame` throws or rejects with names the clip. */
function frameOf(layer: LayerPlan, source: FrameSource, t: number): ReturnType<FrameSource['frame']> {
  return askSource(layer, source, 'frame', t)
}

/**
 * HOT: the layer's source asked for `frame(t)`, `pixels(t)`, `i420(t)` or `i420Over(t, …)` (which it has), with what that throws or rejects
 * with named as the clip's asset `frame` hook's error. No allocation.
 */
export function askSource<M extends 'frame' | 'pixels' | 'i420' | 'i420Over'>(
  layer: LayerPlan,
  source: FrameSource,
  method: M,
  t: number,
  over?: { opacity: number; background: readonly number[] },
): ReturnType<NonNullable<FrameSource[M]>> {
  type Answer = ReturnType<NonNullable<FrameSource[M]>>
  try {
    const pending = (
      method === 'frame'
        ? source.frame(t)
        : method === 'pixels'
          ? source.pixels!(t)
          : method === 'i420'
            ? source.i420!(t)
            : source.i420Over!(t, over!.opacity, over!.background)
    ) as Answer
    if (!(pending instanceof Promise)) return method === 'frame' ? textureOrNull(layer, pending) : pending
    return pending.then(
      (answer) => (method === 'frame' ? textureOrNull(layer, answer) : answer),
      (e: unknown) => {
        throw frameError(layer, method, e)
      },
    ) as Answer
  } catch (e) {
    throw frameError(layer, method, e)
  }
}

/** `frame`'s answer, if it is a texture or null: anything else drew the clip as nothing, without a word. */
function textureOrNull<T>(layer: LayerPlan, answer: T): T {
  const t = answer as { handle?: unknown; width?: unknown; height?: unknown } | null
  if (t === null || (typeof t === 'object' && t.handle !== undefined && typeof t.width === 'number' && typeof t.height === 'number')) return answer
  throw frameError(layer, 'frame', new Error(`answered no texture (one from gpu.texture(…), or null for nothing), got ${JSON.stringify(answer)?.slice(0, 60)}`))
}

/** A source's failure, named by the hook that failed (`frame`, `pixels`, `i420`, `i420Over`). */
const frameError = (layer: LayerPlan, hook: string, e: unknown) => hookError({ kind: 'asset', name: layer.type }, hook, `${layer.path}.asset`, e)

const clamp01 = (x: number) => (x < 0 ? 0 : Math.min(x, 1))

/** The GLSL transition running on `layer` at local time `t`, with its progress, if any. */
export function glslTransition(layer: LayerPlan, t: number) {
  const tin = layer.transitionIn
  if (tin?.motion.blend && t < tin.duration) return { transition: tin, direction: 'in' as const, progress: clamp01(t / tin.duration) }
  const tout = layer.transitionOut
  if (tout?.motion.blend && t > layer.length - tout.duration)
    return { transition: tout, direction: 'out' as const, progress: clamp01((t - (layer.length - tout.duration)) / tout.duration) }
  return undefined
}
