import type { FrameSource, LayerState, Size } from '../plugin.js'
import { hookError } from '../plugin-driver.js'
import type { LayerPlan } from '../plan/layers.js'
import type { Affine } from './affine.js'
import { glslTransition } from './draw-frame.js'
import { layerMatrix } from './layout.js'

/**
 * Whether a layer, in state `s` at clip-local time `t`, covers the frame pixel for pixel with its source's own
 * pixels: a source that hands them over (`FrameSource.pixels`: opaque decoded video) at the frame's size, placed
 * at the origin unscaled, unrotated, uncropped, fully opaque, with no filter, wipe, reveal, luma matte or GLSL
 * transition. Drawn, such a layer reproduces its pixels exactly (NEAREST sampling, no blending over an opaque
 * layer) and hides everything under it — so a frame it tops needs no drawing at all. HOT: no allocation.
 */
export function coversFrame(layer: LayerPlan, s: LayerState, t: number, frame: Size, scratch: Affine): boolean {
  if (layer.filter !== -1 || layer.lumas.length > 0 || layer.hold) return false
  if (layer.need.width !== frame.width || layer.need.height !== frame.height) return false
  if (!unit(layer.quad) || !unit(layer.uv)) return false
  if (s.opacity < 1 || s.wipeFrom !== 0 || s.clipLeft > 0 || s.clipTop > 0 || s.clipRight < 1 || s.clipBottom < 1) return false
  const m = layerMatrix(frame, layer.fitted, layer.position, s, scratch)
  if (!near(m[0], frame.width) || !near(m[3], frame.height) || m[1] !== 0 || m[2] !== 0 || !near(m[4], 0) || !near(m[5], 0)) return false
  return glslTransition(layer, t) === undefined
}

const near = (a: number, b: number) => Math.abs(a - b) < 1e-6
const unit = (q: readonly number[]) => q[0] === 0 && q[1] === 0 && q[2] === 1 && q[3] === 1

/** Frames a covering layer hands straight on (`REELFORGE_DIRECT_FRAMES=off` draws them, to compare). */
export const directFrames = () => process.env.REELFORGE_DIRECT_FRAMES !== 'off'

/** HOT: the covering layer's pixels at clip-local `t`; what its `pixels` throws or rejects with names the clip, as `frame` does. */
export function pixelsOf(layer: LayerPlan, source: FrameSource, t: number): ReturnType<NonNullable<FrameSource['pixels']>> {
  const failed = (e: unknown) => hookError({ kind: 'asset', name: layer.type }, 'frame', `${layer.path}.asset`, e)
  try {
    const pending = source.pixels!(t)
    return pending instanceof Promise ? pending.catch((e: unknown) => Promise.reject(failed(e))) : pending
  } catch (e) {
    throw failed(e)
  }
}
