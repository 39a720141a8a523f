import * as v from 'valibot'
import { BoolLike, num, numOrTween, oneOf, show } from './primitives.js'
import { POSITIONS } from './names.js'

const SMART_START = /^(auto|alias:\/\/[A-Za-z0-9_-]+)$/
const SMART_LENGTH = /^(auto|end|alias:\/\/[A-Za-z0-9_-]+)$/

/** `start`: seconds ≥ 0, `auto` (after the previous clip on the track) or `alias://name`. */
export const StartSchema = v.union(
  [
    num(0),
    v.pipe(
      v.string(),
      v.regex(SMART_START, (i) => `must be seconds, "auto" or "alias://name"; got ${show(i.input)}`),
    ),
  ],
  (i) => `must be seconds, "auto" or "alias://name"; got ${show(i.input)}`,
)

/** `length`: seconds ≥ 0, `auto` (the asset's own duration), `end` (to the timeline's end) or `alias://name`. */
export const LengthSchema = v.union(
  [
    num(0),
    v.pipe(
      v.string(),
      v.regex(SMART_LENGTH, (i) => `must be seconds, "auto", "end" or "alias://name"; got ${show(i.input)}`),
    ),
  ],
  (i) => `must be seconds, "auto", "end" or "alias://name"; got ${show(i.input)}`,
)

/**
 * Offset in fractions of the frame. The seed's range is −1..1; Shotstack accepts up to ±10 (off-screen),
 * so ±10 validates and the plan warns beyond ±1.
 */
export const OffsetSchema = v.object({ x: v.optional(numOrTween(-10, 10)), y: v.optional(numOrTween(-10, 10)) })

/** Transition names are checked against the registry and Shotstack's enum by `validateEdit`. */
export const TransitionSchema = v.object({ in: v.optional(v.string()), out: v.optional(v.string()) })

export const TransformSchema = v.object({
  rotate: v.optional(v.object({ angle: v.optional(numOrTween(-360, 360)) })),
  skew: v.optional(v.object({ x: v.optional(numOrTween(-100, 100)), y: v.optional(numOrTween(-100, 100)) })),
  flip: v.optional(v.object({ horizontal: v.optional(BoolLike), vertical: v.optional(BoolLike) })),
})

/** The asset is checked against its own plugin's schema once its `type` is known. */
export const LooseAssetSchema = v.looseObject({ type: v.string((i) => `must be an asset type string, got ${show(i.input)}`) })

/** A clip: what to show (asset), when (start, length) and how (fit, scale, position, offset, motion, looks). */
export const ClipSchema = v.object({
  asset: LooseAssetSchema,
  start: StartSchema,
  length: LengthSchema,
  // Any registered fit plugin's name (Shotstack's four are built in); checked against the registry in validate.ts.
  fit: v.optional(v.string()),
  scale: v.optional(numOrTween(0, 100)),
  width: v.optional(num(1, 7680)),
  height: v.optional(num(1, 7680)),
  position: v.optional(oneOf(POSITIONS)),
  offset: v.optional(OffsetSchema),
  transition: v.optional(TransitionSchema),
  effect: v.optional(v.string()),
  filter: v.optional(v.string()),
  opacity: v.optional(numOrTween(0, 1)),
  transform: v.optional(TransformSchema),
  alias: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^[A-Za-z0-9_-]+$/, (i) => `must use letters, digits, _ or -; got ${show(i.input)}`),
    ),
  ),
  id: v.optional(v.string()),
})
export type ClipInput = v.InferInput<typeof ClipSchema>
export type ClipOutput = v.InferOutput<typeof ClipSchema>

export const TrackSchema = v.object({
  clips: v.pipe(
    v.array(ClipSchema, (i) => `must be an array of clips, got ${show(i.input)}`),
    v.minLength(1, 'must hold at least one clip'),
  ),
})
export type TrackOutput = v.InferOutput<typeof TrackSchema>
