import type { Size } from '../plugin.js'
import type { Affine } from './affine.js'

/** One texel-exact layer to blend on the CPU (cover-frames.ts): what the painter would draw, as numbers. */
export interface OverCall {
  /** The texture's premultiplied RGBA, top row first. */
  pixels: Uint8Array
  size: Size
  /** Axis-aligned, one texel a pixel (painter.ts `texelExact`). */
  matrix: Affine
  quad: readonly [number, number, number, number]
  uv: readonly [number, number, number, number]
  opacity: number
}

/**
 * Blends `c` over the RGBA frame `dst` as GL does with the layer shader and `ONE, ONE_MINUS_SRC_ALPHA`: the pixels
 * whose centres the quad covers, each the texel under it (NEAREST: texel-exact), times the opacity, over what
 * is there — in floating point, rounded, as a GPU writes 8-bit colour. Titles and captions over a frame the CPU
 * made: their boxes are a fraction of it, a few ms at most.
 */
export function blendOver(dst: Uint8Array, frame: Size, c: OverCall): void {
  const [a, , , d, e, f] = c.matrix
  const { width: tw, height: th } = c.size
  // Pixel centres inside [x0, x1) × [y0, y1), within the frame.
  const from = (edge: number) => Math.ceil(edge - 0.5)
  const x0 = Math.max(0, from(e + a * c.quad[0]))
  const x1 = Math.min(frame.width, from(e + a * c.quad[2]))
  const y0 = Math.max(0, from(f + d * c.quad[1]))
  const y1 = Math.min(frame.height, from(f + d * c.quad[3]))
  if (x1 <= x0 || y1 <= y0) return
  // The texel under pixel x: u0·W + (x + ½ − e) − ½, a whole number for a texel-exact draw.
  const tx0 = Math.round(c.uv[0] * tw - e) + x0
  const ty0 = Math.round(c.uv[1] * th - f) + y0
  const o = c.opacity
  const k = o / 255
  const src = c.pixels
  for (let y = y0; y < y1; y++) {
    const ty = Math.min(th - 1, Math.max(0, ty0 + y - y0))
    let p = (y * frame.width + x0) * 4
    for (let x = x0; x < x1; x++, p += 4) {
      const tx = Math.min(tw - 1, Math.max(0, tx0 + x - x0))
      const s = (ty * tw + tx) * 4
      const sa = src[s + 3]!
      if (sa === 0) continue
      const keep = 1 - sa * k
      dst[p] = Math.round(src[s]! * o + dst[p]! * keep)
      dst[p + 1] = Math.round(src[s + 1]! * o + dst[p + 1]! * keep)
      dst[p + 2] = Math.round(src[s + 2]! * o + dst[p + 2]! * keep)
      dst[p + 3] = Math.round(sa * o + dst[p + 3]! * keep)
    }
  }
}
