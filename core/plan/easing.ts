/**
 * Shotstack's easings as CSS cubic-bezier control points (the same table Shotstack's editor uses).
 * Each becomes a solved curve x → y once, at plan time.
 */
const CURVES: Record<string, [number, number, number, number]> = {
  ease: [0.25, 0.1, 0.25, 1],
  easeIn: [0.42, 0, 1, 1],
  easeOut: [0, 0, 0.58, 1],
  easeInOut: [0.42, 0, 0.58, 1],
  easeInQuad: [0.55, 0.085, 0.68, 0.53],
  easeInCubic: [0.55, 0.055, 0.675, 0.19],
  easeInQuart: [0.895, 0.03, 0.685, 0.22],
  easeInQuint: [0.755, 0.05, 0.855, 0.06],
  easeInSine: [0.47, 0, 0.745, 0.715],
  easeInExpo: [0.95, 0.05, 0.795, 0.035],
  easeInCirc: [0.6, 0.04, 0.98, 0.335],
  easeInBack: [0.6, -0.28, 0.735, 0.045],
  easeOutQuad: [0.25, 0.46, 0.45, 0.94],
  easeOutCubic: [0.215, 0.61, 0.355, 1],
  easeOutQuart: [0.165, 0.84, 0.44, 1],
  easeOutQuint: [0.23, 1, 0.32, 1],
  easeOutSine: [0.39, 0.575, 0.565, 1],
  easeOutExpo: [0.19, 1, 0.22, 1],
  easeOutCirc: [0.075, 0.82, 0.165, 1],
  easeOutBack: [0.175, 0.885, 0.32, 1.275],
  easeInOutQuad: [0.455, 0.03, 0.515, 0.955],
  easeInOutCubic: [0.645, 0.045, 0.355, 1],
  easeInOutQuart: [0.77, 0, 0.175, 1],
  easeInOutQuint: [0.86, 0, 0.07, 1],
  easeInOutSine: [0.445, 0.05, 0.55, 0.95],
  easeInOutExpo: [1, 0, 0, 1],
  easeInOutCirc: [0.785, 0.135, 0.15, 0.86],
  easeInOutBack: [0.68, -0.55, 0.265, 1.55],
}

/** Names `easing()` knows (plus `linear`). */
export const EASING_NAMES = [...Object.keys(CURVES), 'linear']

export type Ease = (x: number) => number
const linear: Ease = (x) => x
const cache = new Map<string, Ease>()

/** The easing function for a name; unknown names and `linear` are linear. */
export function easing(name: string | undefined): Ease {
  if (!name || name === 'linear' || !CURVES[name]) return linear
  let fn = cache.get(name)
  if (!fn) cache.set(name, (fn = cubicBezier(...CURVES[name]!)))
  return fn
}

/** CSS cubic-bezier(x1, y1, x2, y2): solves x(s) = x by Newton steps with a bisection fallback. */
export function cubicBezier(x1: number, y1: number, x2: number, y2: number): Ease {
  const cx = 3 * x1,
    bx = 3 * (x2 - x1) - cx,
    ax = 1 - cx - bx
  const cy = 3 * y1,
    by = 3 * (y2 - y1) - cy,
    ay = 1 - cy - by
  const sx = (s: number) => ((ax * s + bx) * s + cx) * s
  const sy = (s: number) => ((ay * s + by) * s + cy) * s
  const dx = (s: number) => (3 * ax * s + 2 * bx) * s + cx
  return (x) => {
    if (x <= 0) return 0
    if (x >= 1) return 1
    let s = x
    for (let i = 0; i < 8; i++) {
      const err = sx(s) - x
      if (Math.abs(err) < 1e-7) return sy(s)
      const d = dx(s)
      if (Math.abs(d) < 1e-6) break
      s -= err / d
    }
    let lo = 0,
      hi = 1
    s = x
    for (let i = 0; i < 40; i++) {
      const v = sx(s)
      if (Math.abs(v - x) < 1e-7) break
      if (v < x) lo = s
      else hi = s
      s = (lo + hi) / 2
    }
    return sy(s)
  }
}
