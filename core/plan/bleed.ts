import type { Bleed, Size } from '../plugin.js'

type Quad = [number, number, number, number]

/**
 * The whole texels a source adds on each side of its box for `bleed` (pixels of the asset's `size`) when it
 * draws the box at `need` pixels: rounded up, so the box itself stays `need` texels and lands on whole texels.
 * The compositor and the asset both use this, so they agree on where the box sits in the larger texture.
 */
export function bleedTexels(bleed: Bleed, size: Size, need: Size): Bleed {
  const x = need.width / size.width,
    y = need.height / size.height
  const texels = (n: number, k: number) => (n > 0 ? Math.ceil(n * k - 1e-6) : 0)
  return { top: texels(bleed.top, y), right: texels(bleed.right, x), bottom: texels(bleed.bottom, y), left: texels(bleed.left, x) }
}

/**
 * The layer's window (`layerWindow`) for a texture that holds its box plus `texels` of bleed around it: the
 * texture window is narrowed onto the box, so everything drawn inside the box stays where it was, and each
 * quad edge that showed an edge of the box (not cut by `crop` or a smaller clip box) moves out over the
 * bleed. The quad stays in the layer's unit square, so the bleed moves, scales and rotates with the box.
 * `hold` is the box's window in the texture (ascending), which the painter keeps the box's samples within.
 */
export function windowWithBleed(quad: Quad, uv: Quad, texels: Bleed, need: Size): { quad: Quad; uv: Quad; hold: Quad } {
  const q: Quad = [...quad]
  const t: Quad = [...uv]
  const hold: Quad = [0, 0, 1, 1]
  const axis = (i: 0 | 1, size: number, before: number, after: number) => {
    const s0 = uv[i]!,
      s1 = uv[i + 2]!
    // Box coordinates s (0..1 across the box) of each quad edge, and how far the bleed reaches in them.
    const at = (qv: number) => s0 + qv * (s1 - s0)
    const reach = (s: number) => (Math.abs(s) < 1e-9 ? -before / size : Math.abs(s - 1) < 1e-9 ? 1 + after / size : s)
    q[i] = (reach(at(quad[i]!)) - s0) / (s1 - s0)
    q[i + 2] = (reach(at(quad[i + 2]!)) - s0) / (s1 - s0)
    // The texture is `before + size + after` texels: the box's 0..1 becomes its middle part.
    const total = before + size + after
    t[i] = (before + s0 * size) / total
    t[i + 2] = (before + s1 * size) / total
    hold[i] = before / total
    hold[i + 2] = (before + size) / total
  }
  axis(0, need.width, texels.left, texels.right)
  axis(1, need.height, texels.top, texels.bottom)
  return { quad: q, uv: t, hold }
}
