import type { Timed } from './clip-times.js'

/** How near (in screen pixels) a dragged edge must come to a snap point to land on it. */
export const SNAP_PX = 8

/**
 * The times a dragged clip's edges snap to: the other clips' edges, the playhead and every whole second up to
 * a little past the end.
 */
export function snapPoints(times: Timed[][], moving: (t: Timed) => boolean, playhead: number, until: number): number[] {
  const points = new Set<number>([playhead])
  for (const t of times.flat()) if (!moving(t)) points.add(t.start).add(t.start + t.length)
  for (let s = 0; s <= Math.ceil(until) + 1; s++) points.add(s)
  return [...points]
}

/**
 * The shift that puts one of `edges` (seconds, after moving by `delta`) on the nearest snap point within
 * `tolerance` seconds, or `delta` itself when none is that near.
 */
export function snapDelta(edges: number[], delta: number, points: number[], tolerance: number): { delta: number; at?: number } {
  let best: { delta: number; at: number; off: number } | undefined
  for (const edge of edges)
    for (const p of points) {
      const off = Math.abs(edge + delta - p)
      if (off <= tolerance && (!best || off < best.off)) best = { delta: p - edge, at: p, off }
    }
  return best ? { delta: best.delta, at: best.at } : { delta }
}
