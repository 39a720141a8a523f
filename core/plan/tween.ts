import type { Animatable, TweenOutput } from '../schema/primitives.js'
import { easing } from './easing.js'

/** A property's value over clip-local time, compiled once at plan time. HOT to call. */
export type Track = (t: number) => number

/**
 * Compiles a constant or a tween array (Shotstack "keyframes") into a function of clip-local seconds.
 * Before the first tween the first `from` holds, between tweens the previous `to`, after the last its `to`.
 * `linear` interpolates, `bezier` eases (default `ease`), `constant` holds `from` until the segment ends.
 */
export function compileTrack(value: Animatable | undefined, fallback: number, map: (n: number) => number = (n) => n): Track {
  if (value === undefined) {
    const c = map(fallback)
    return () => c
  }
  if (typeof value === 'number') {
    const c = map(value)
    return () => c
  }
  const segments = [...value].sort((a, b) => a.start - b.start).map((s) => compileSegment(s, map))
  const first = segments[0]!
  return (t) => {
    if (t <= first.start) return first.from
    let last = first
    for (const s of segments) {
      if (t < s.start) return last.to
      if (t < s.end) return s.at(t)
      last = s
    }
    return last.to
  }
}

function compileSegment(s: TweenOutput, map: (n: number) => number) {
  const from = map(s.from),
    to = map(s.to)
  const end = s.start + s.length
  // Shotstack applies `easing` only with bezier interpolation.
  const ease = s.interpolation === 'bezier' ? easing(s.easing ?? 'ease') : s.interpolation === 'constant' ? () => 0 : easing('linear')
  return {
    start: s.start,
    end,
    from,
    to,
    at: (t: number) => (s.length <= 0 ? to : from + (to - from) * ease((t - s.start) / s.length)),
  }
}

/** True when a property changes over time (so frames showing it cannot be reused). */
export function isAnimated(value: Animatable | undefined): boolean {
  return Array.isArray(value) && value.some((s) => s.from !== s.to)
}
