import type { Frame } from './probe.js'

export interface Point {
  x: number
  y: number
}

/** Where what was drawn starts and ends along one axis, and whether the frame's edge cut it there. */
export interface Span {
  /** Left (x) or bottom (y) edge, in Shotstack's units. */
  lo: number
  hi: number
  loCut: boolean
  hiCut: boolean
}

/** Where a lone clip's pixels are, in Shotstack's units: −0.5…0.5 from the frame's centre, +x right, +y up. */
export interface Measure {
  /** Alpha-weighted centre; none when the clip drew (next to) nothing. */
  centre?: Point
  x?: Span
  y?: Span
}

/** Less coverage than this many opaque pixels is noise (a stray antialiased edge), not a picture. */
const MIN_PIXELS = 4
/** Alpha above this marks a pixel as part of the picture's extent (a faint shadow's fringe does not). */
const EDGE_ALPHA = 8

/**
 * The alpha-weighted centroid and extent of a frame drawn on a transparent background: alpha is the clip's
 * coverage whatever its colour, so a black title counts as much as a white one.
 */
export function measure(frame: Frame): Measure {
  const { width: w, height: h, rgba } = frame
  let mass = 0
  let sx = 0
  let sy = 0
  let [x0, x1, y0, y1] = [w, -1, h, -1]
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const a = rgba[(y * w + x) * 4 + 3]!
      if (a === 0) continue
      mass += a
      sx += a * x
      sy += a * y
      if (a > EDGE_ALPHA) [x0, x1, y0, y1] = [Math.min(x0, x), Math.max(x1, x), Math.min(y0, y), Math.max(y1, y)]
    }
  }
  if (mass < MIN_PIXELS * 255 || x1 < 0) return {}
  // Pixel centres (+0.5) as fractions of the frame from its centre; rows run top first, so y is flipped.
  const fx = (px: number) => (px + 0.5) / w - 0.5
  const fy = (py: number) => 0.5 - (py + 0.5) / h
  return {
    centre: { x: fx(sx / mass), y: fy(sy / mass) },
    x: { lo: fx(x0), hi: fx(x1), loCut: x0 === 0, hiCut: x1 === w - 1 },
    y: { lo: fy(y1), hi: fy(y0), loCut: y1 === h - 1, hiCut: y0 === 0 },
  }
}
