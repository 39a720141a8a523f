import type { LayerState } from '../plugin.js'

/**
 * The one list of a layer's animated state, each field with its neutral value (nothing applied). The
 * `LayerState` type, `neutralState()`, the frame loop's per-frame reset and its frame-reuse key are all
 * derived from it: a field added here is typed, reset and compared everywhere at once, so no copy can
 * forget it (the reuse key once missed `wipeSoftness`, and a frame whose wipe edge changed was repeated).
 */
export const LAYER_STATE = Object.freeze({
  opacity: 1,
  /** Fractions of the frame, x right-positive and y down-positive. */
  offsetX: 0,
  offsetY: 0,
  scale: 1,
  /** Scales about the layer's centre. */
  zoom: 1,
  rotate: 0,
  skewX: 0,
  skewY: 0,
  /** Visible window of the layer in its own 0..1 coordinates (reveal masks). */
  clipLeft: 0,
  clipRight: 1,
  clipTop: 0,
  clipBottom: 1,
  /** Soft-edged horizontal wipe: 0 off, 1 uncovering from the left, -1 from the right. */
  wipeFrom: 0,
  /** How far the wipe's edge has travelled across the layer (0..1 + softness). */
  wipePosition: 0,
  /** Width of the wipe's soft edge, in layer widths. */
  wipeSoftness: 0,
})

/** The field names in a fixed order: what the key and the generated code below walk. */
export const LAYER_STATE_KEYS: readonly (keyof LayerState)[] = Object.freeze(Object.keys(LAYER_STATE) as (keyof LayerState)[])

/** Numbers a frame key holds per layer: the layer's id, then every state field. */
export const KEY_FIELDS = 1 + LAYER_STATE_KEYS.length

// Why generated code: a `s[name]` inside a loop over 15 names makes V8's property access megamorphic — a
// plain loop measured ~25× slower than the spelled-out assignments (0.75 µs against 27 ns per layer per
// frame). So the two hot functions are built once, from the key list, as straight-line named accesses.
const generate = (params: string, line: (key: string, f: number) => string, first = '', last = '') => {
  for (const k of LAYER_STATE_KEYS) if (!/^[A-Za-z_$][\w$]*$/.test(k)) throw new Error(`LAYER_STATE key ${k} is not an identifier`)
  return new Function(params, [first, ...LAYER_STATE_KEYS.map(line), last].join('\n'))
}

/** Puts every field back to its neutral value. HOT: no allocation. */
export const resetState = generate('s', (k) => `s.${k} = ${LAYER_STATE[k as keyof LayerState]}`) as (s: LayerState) => void

/** Writes layer `id` with state `s` into `key` at `at` (`KEY_FIELDS` numbers). HOT: no allocation. */
export const writeKey = generate('key, at, id, s', (k, f) => `key[at + ${1 + f}] = s.${k}`, 'key[at] = id') as (
  key: Float64Array,
  at: number,
  id: number,
  s: LayerState,
) => void

/** Whether every field of `s` is a finite number (their sum is: NaN or ±∞ in any field makes it not). HOT. */
export const finiteState = generate('s', (k) => `sum += s.${k}`, 'let sum = 0', 'return Number.isFinite(sum)') as (s: LayerState) => boolean

/** Whether two keys hold the same layer in the same state at `at`. */
export function sameKey(a: Float64Array, b: Float64Array, at: number): boolean {
  for (let f = at; f < at + KEY_FIELDS; f++) if (a[f] !== b[f]) return false
  return true
}
