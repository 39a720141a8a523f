import type { LayerState, Size } from '../plugin.js'
import type { LayerPlan } from '../plan/layers.js'
import type { Affine } from './affine.js'
import type { Texture } from './gpu.js'
import { glslTransition } from './draw-frame.js'
import { layerMatrix } from './layout.js'
import { texelExact, type DrawCall } from './painter.js'

/**
 * How a layer, in state `s` at clip-local time `t`, covers the frame with its source's own opaque pixels
 * (`FrameSource.pixels`), if it does: unrotated, unskewed, uncropped by a reveal, with no filter, wipe, luma
 * matte, bleed or GLSL transition, over the whole frame. `exact`: placed at the origin at the frame's size,
 * fully opaque — drawn, it reproduces its pixels exactly (NEAREST sampling, no blending), so they go on as they
 * are. `faded`: so placed but translucent (a clip fading in or out) — blended over the background on the CPU.
 * `scaled`: any other axis-aligned placement that still covers every pixel (a Ken Burns still) — drawn on the CPU
 * (cpu-warp.ts). Translucent, either shows the background, so the caller takes it only when nothing else is
 * visible under it or it is opaque. Undefined: draw it. Leaves the layer's matrix in `scratch`. HOT: no allocation.
 */
export function coverOf(layer: LayerPlan, s: LayerState, t: number, frame: Size, scratch: Affine): 'exact' | 'faded' | 'scaled' | undefined {
  if (!plain(layer, s) || layer.hold || !unit(layer.quad)) return undefined
  if (layer.need.width < 2 || layer.need.height < 2) return undefined
  const m = layerMatrix(frame, layer.fitted, layer.position, s, scratch)
  if (m[1] !== 0 || m[2] !== 0 || m[0] <= 0 || m[3] <= 0) return undefined
  if (m[4] > 1e-6 || m[5] > 1e-6 || m[4] + m[0] < frame.width - 1e-6 || m[5] + m[3] < frame.height - 1e-6) return undefined
  if (glslTransition(layer, t) !== undefined) return undefined
  const placed =
    unit(layer.uv) &&
    layer.need.width === frame.width &&
    layer.need.height === frame.height &&
    near(m[0], frame.width) &&
    near(m[3], frame.height) &&
    near(m[4], 0) &&
    near(m[5], 0)
  return placed ? (s.opacity >= 1 ? 'exact' : 'faded') : 'scaled'
}

/**
 * Whether a layer above a cover can be blended on the CPU (cpu-over.ts): no filter, wipe, reveal, luma matte or
 * GLSL transition, axis-aligned at one texel a pixel (the texel it shows under each pixel is exact, as the
 * painter's NEAREST sampling of it). Leaves the layer's matrix in `scratch`. HOT: no allocation.
 */
export function overlayOf(layer: LayerPlan, s: LayerState, t: number, frame: Size, size: Size, scratch: Affine): boolean {
  if (!plain(layer, s)) return false
  EXACT.matrix = layerMatrix(frame, layer.fitted, layer.position, s, scratch)
  EXACT.uv = layer.uv
  EXACT.texture = size as Texture
  return texelExact(EXACT) && glslTransition(layer, t) === undefined
}

/** The fields of a draw `texelExact` reads. */
const EXACT = { matrix: [0, 0, 0, 0, 0, 0], uv: [0, 0, 1, 1], texture: undefined } as unknown as DrawCall

/** No filter or luma matte, and in state `s` no wipe or reveal: what both ways around the GPU need of a layer. */
const plain = (layer: LayerPlan, s: LayerState) =>
  layer.filter === -1 && layer.lumas.length === 0 && s.wipeFrom === 0 && s.clipLeft <= 0 && s.clipTop <= 0 && s.clipRight >= 1 && s.clipBottom >= 1

const near = (a: number, b: number) => Math.abs(a - b) < 1e-6
const unit = (q: readonly number[]) => q[0] === 0 && q[1] === 0 && q[2] === 1 && q[3] === 1

/** Frames a covering layer hands straight on (`REELFORGE_DIRECT_FRAMES=off` draws them, to compare). */
export const directFrames = () => process.env.REELFORGE_DIRECT_FRAMES !== 'off'

/**
 * BT.709, BT.601, untagged and HDR clips decode to I420 where frames are packed on the CPU
 * (`REELFORGE_DECODED_I420=off`: RGBA, to compare).
 */
export const decodedI420 = () => process.env.REELFORGE_DECODED_I420 !== 'off'

/** A clip fading over the background faded on its way to I420 (`REELFORGE_FADED_I420=off`: blended as RGBA, to compare). */
export const fadedI420 = () => process.env.REELFORGE_FADED_I420 !== 'off'
