import * as v from 'valibot'
import { CSS_COLOURS } from './css-colours.js'

/**
 * Building blocks for the Shotstack schema. Real edits are loose — `"size": "36"`, `"cache": "false"` —
 * so numbers and booleans also accept their string spelling, and colours accept an unresolved
 * `{{ KEY }}` merge field (reported as a warning elsewhere, rendered with the default).
 */

const NUMERIC = /^\s*[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?\s*$/i

/** Renders a received value for an error message: strings quoted and clipped, objects by kind. */
export function show(input: unknown): string {
  if (typeof input === 'string') return JSON.stringify(input.length > 60 ? `${input.slice(0, 57)}...` : input)
  if (Array.isArray(input)) return 'an array'
  if (input === null) return 'null'
  if (typeof input === 'object') return 'an object'
  return String(input)
}

/** A finite number, or a string that spells one (coerced). */
export const NumberLike = v.pipe(
  v.union(
    [
      v.pipe(
        v.number(),
        v.finite((i) => `must be a finite number, got ${show(i.input)}`),
      ),
      v.pipe(
        v.string(),
        v.regex(NUMERIC, (i) => `must be a number, got ${show(i.input)}`),
        v.transform((s) => Number(s)),
        // "1e400" spells a number JSON cannot hold: it parses to Infinity, which no renderer can use.
        v.finite(() => 'must be a finite number (too large to represent)'),
      ),
    ],
    (i) => `must be a number, got ${show(i.input)}`,
  ),
)

/** A number within [min, max] (either bound optional), coerced from numeric strings. */
export function num(min?: number, max?: number) {
  if (min === undefined && max === undefined) return v.pipe(NumberLike)
  const rule = min !== undefined && max !== undefined ? `between ${min} and ${max}` : min !== undefined ? `at least ${min}` : `at most ${max}`
  return v.pipe(
    NumberLike,
    v.check(
      (n: number) => (min === undefined || n >= min) && (max === undefined || n <= max),
      (i) => `must be ${rule}, got ${show(i.input)}`,
    ),
  )
}

/** An integer within [min, max], coerced from numeric strings. */
export function int(min?: number, max?: number) {
  return v.pipe(
    num(min, max),
    v.integer((i) => `must be an integer, got ${show(i.input)}`),
  )
}

/** A boolean, or the strings "true"/"false" (DOCS21's caching example writes `"cache": "false"`). */
export const BoolLike = v.union(
  [
    v.boolean(),
    v.pipe(
      v.picklist(['true', 'false']),
      v.transform((s) => s === 'true'),
    ),
  ],
  (i) => `must be true or false, got ${show(i.input)}`,
)

const HEX = /^#([0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i
const PLACEHOLDER = /^\s*\{\{\s*[^{}]+?\s*\}\}\s*$/
const CSS_FUNCTION = /^rgba?\([^)]*\)$/i
/** `transparent`, a CSS colour name (any case) or rgb()/rgba(). */
const cssColour = (s: string) => CSS_FUNCTION.test(s) || s.toLowerCase() === 'transparent' || Object.hasOwn(CSS_COLOURS, s.toLowerCase())

/**
 * A colour: `#rgb`, `#rrggbb`, Shotstack's alpha-first `#aarrggbb`, a CSS name or rgb()/rgba().
 * An unresolved merge field becomes `undefined` so the default applies.
 */
export const Color = v.pipe(
  v.string((i) => `must be a colour string, got ${show(i.input)}`),
  v.check(
    (s) => HEX.test(s.trim()) || PLACEHOLDER.test(s) || cssColour(s.trim()),
    (i) => `must be a colour: #rrggbb (or #rgb, Shotstack's #aarrggbb), a CSS colour name or rgb()/rgba(), got ${show(i.input)}`,
  ),
  v.transform((s) => (PLACEHOLDER.test(s) ? undefined : s.trim())),
)

/** A non-empty source reference: URL, `file://` URL, local path or `alias://name`. */
export const Src = v.pipe(
  v.string((i) => `must be a URL string, got ${show(i.input)}`),
  v.trim(),
  v.minLength(1, 'must not be empty'),
)

/** A picklist whose error message lists the allowed values. */
export function oneOf<const T extends readonly string[]>(values: T) {
  return v.picklist(values, (i) => `must be one of ${values.join(', ')}; got ${show(i.input)}`)
}

/** Shotstack's 28 bezier easings, plus `linear` which real templates use. */
export const EASINGS = [
  'ease',
  'easeIn',
  'easeOut',
  'easeInOut',
  'easeInQuad',
  'easeInCubic',
  'easeInQuart',
  'easeInQuint',
  'easeInSine',
  'easeInExpo',
  'easeInCirc',
  'easeInBack',
  'easeOutQuad',
  'easeOutCubic',
  'easeOutQuart',
  'easeOutQuint',
  'easeOutSine',
  'easeOutExpo',
  'easeOutCirc',
  'easeOutBack',
  'easeInOutQuad',
  'easeInOutCubic',
  'easeInOutQuart',
  'easeInOutQuint',
  'easeInOutSine',
  'easeInOutExpo',
  'easeInOutCirc',
  'easeInOutBack',
  'linear',
] as const

/** One keyframe segment: `{from, to, start, length, interpolation, easing}`, times relative to the clip. */
export const TweenSchema = v.object({
  from: NumberLike,
  to: NumberLike,
  start: v.optional(num(0), 0),
  length: v.optional(num(0), 0),
  interpolation: v.optional(oneOf(['linear', 'bezier', 'constant'] as const), 'linear'),
  easing: v.optional(oneOf(EASINGS)),
})
export type TweenOutput = v.InferOutput<typeof TweenSchema>

/** A property that is either a constant number in [min, max] or an array of tweens. */
export function numOrTween(min?: number, max?: number) {
  return v.union(
    [num(min, max), v.pipe(v.array(TweenSchema), v.minLength(1, 'must hold at least one tween'))],
    (i) => `must be a number or an array of tweens, got ${show(i.input)}`,
  )
}
export type Animatable = number | TweenOutput[]
