/**
 * 2D affine maps `[a, b, c, d, e, f]`: (x, y) → (a·x + c·y + e, b·x + d·y + f), in pixels, y down.
 * Small and allocation-free where it matters: `into` variants write into a caller's array.
 */
export type Affine = [number, number, number, number, number, number]

export const identity = (): Affine => [1, 0, 0, 1, 0, 0]

/** `m ∘ n` (apply n first, then m). */
export function multiply(m: Affine, n: Affine, into: Affine = [0, 0, 0, 0, 0, 0]): Affine {
  const [a, b, c, d, e, f] = m
  const [A, B, C, D, E, F] = n
  into[0] = a * A + c * B
  into[1] = b * A + d * B
  into[2] = a * C + c * D
  into[3] = b * C + d * D
  into[4] = a * E + c * F + e
  into[5] = b * E + d * F + f
  return into
}

/** Linear part `l` applied about the pivot (px, py): p → P + l·(p − P). */
export function about(l: [number, number, number, number], px: number, py: number): Affine {
  const [a, b, c, d] = l
  return [a, b, c, d, px - (a * px + c * py), py - (b * px + d * py)]
}

/** Applies `m` to a point. */
export function apply(m: Affine, x: number, y: number): [number, number] {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]]
}
