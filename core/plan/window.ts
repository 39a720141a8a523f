import type { Size } from '../plugin.js'

type Quad = [number, number, number, number]

export interface CropFractions {
  top?: number
  bottom?: number
  left?: number
  right?: number
}

/**
 * Where the texture lands inside the layer's unit square, once, at plan time.
 * - `crop` (asset crop, fractions cut from each edge) narrows the texture window.
 * - A clip box (`width`/`height`) smaller than the fitted asset masks it (centred, as Shotstack crops);
 *   a larger box leaves margins around it.
 * `uv` may extend past 0..1: the shader maps the layer's unit square linearly onto it, so a sub-quad
 * still samples the whole texture. Flips swap the window's ends.
 */
export function layerWindow(fitted: Size, box: Size | undefined, crop: CropFractions | undefined, flipH = false, flipV = false): { quad: Quad; uv: Quad } {
  let u0 = crop?.left ?? 0,
    u1 = 1 - (crop?.right ?? 0),
    v0 = crop?.top ?? 0,
    v1 = 1 - (crop?.bottom ?? 0)
  const quad: Quad = [0, 0, 1, 1]
  if (box) {
    ;[quad[0], quad[2], u0, u1] = axis(fitted.width, box.width, u0, u1)
    ;[quad[1], quad[3], v0, v1] = axis(fitted.height, box.height, v0, v1)
  }
  if (flipH) [u0, u1] = [u1, u0]
  if (flipV) [v0, v1] = [v1, v0]
  return { quad, uv: [u0, v0, u1, v1] }
}

/** One axis: returns [q0, q1, t0, t1] so that unit q maps to texture coordinate t linearly. */
function axis(asset: number, box: number, t0: number, t1: number): [number, number, number, number] {
  if (asset >= box) {
    // Masked: the box shows the middle `box/asset` of the texture window.
    const keep = box / asset,
      mid = (t0 + t1) / 2,
      half = ((t1 - t0) * keep) / 2
    return [0, 1, mid - half, mid + half]
  }
  // Margins: the asset covers the middle of the box; extrapolate the window so q0..q1 spans t0..t1.
  const q0 = (1 - asset / box) / 2,
    q1 = 1 - q0
  const span = (t1 - t0) / (q1 - q0)
  return [q0, q1, t0 - q0 * span, t0 - q0 * span + span]
}
