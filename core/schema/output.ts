import * as v from 'valibot'
import { BoolLike, int, num, oneOf, show } from './primitives.js'

export const FORMATS = ['mp4', 'gif', 'webm', 'mov', 'jpg', 'png', 'bmp', 'mp3'] as const
export const RESOLUTIONS = ['preview', 'mobile', 'sd', 'hd', '1080', '4k'] as const
export const ASPECT_RATIOS = ['16:9', '9:16', '1:1', '4:5', '4:3'] as const
export const QUALITIES = ['verylow', 'low', 'medium', 'high', 'veryhigh'] as const
/** Shotstack's frame rates; the seed lists 15, 24, 25, 30 and 60. */
export const FPS_VALUES = [12, 15, 23.976, 24, 25, 29.97, 30, 48, 50, 59.94, 60] as const

export type Format = (typeof FORMATS)[number]
export type Resolution = (typeof RESOLUTIONS)[number]
export type AspectRatio = (typeof ASPECT_RATIOS)[number]
export type Quality = (typeof QUALITIES)[number]

const Fps = v.pipe(
  num(),
  v.check(
    (n: number) => (FPS_VALUES as readonly number[]).includes(n),
    (i) => `must be one of ${FPS_VALUES.join(', ')}; got ${show(i.input)}`,
  ),
)

/** `output`: format, size (resolution × aspectRatio, or explicit size), fps, quality and extras. */
export const OutputSchema = v.object({
  // Shotstack requires `format`, but real edits omit it; mp4 is the seed's default.
  format: v.optional(oneOf(FORMATS), 'mp4'),
  resolution: v.optional(oneOf(RESOLUTIONS)),
  aspectRatio: v.optional(oneOf(ASPECT_RATIOS)),
  size: v.optional(v.object({ width: int(2, 4096), height: int(2, 4096) })),
  fps: v.optional(Fps),
  scaleTo: v.optional(oneOf(RESOLUTIONS)),
  quality: v.optional(oneOf(QUALITIES), 'medium'),
  repeat: v.optional(BoolLike),
  mute: v.optional(BoolLike),
  range: v.optional(v.object({ start: v.optional(num(0), 0), length: v.optional(num(0)) })),
  poster: v.optional(v.object({ capture: num(0) })),
  thumbnail: v.optional(v.object({ capture: num(0), scale: num(0, 1) })),
  destinations: v.optional(v.array(v.looseObject({ provider: v.string() }))),
})
export type OutputInput = v.InferInput<typeof OutputSchema>
export type OutputOutput = v.InferOutput<typeof OutputSchema>
