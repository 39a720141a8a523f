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

const text = (description: string) => v.optional(v.pipe(v.string(), v.description(description)))
/** `{ provider: "s3", options }`: Shotstack's S3 destination, plus `endpoint` (service/destinations/schema.ts checks it). */
export const S3DestinationSchema = v.object({
  provider: v.literal('s3'),
  options: v.object({
    bucket: v.pipe(v.string(), v.description("the bucket, written with the account's credentials from PUT /v1/integrations/s3")),
    region: text('its region, e.g. us-east-1'),
    prefix: text('a key prefix (a folder), e.g. renders'),
    filename: text('the file name without extension (default: the render id)'),
    acl: text('a canned ACL: private, public-read, bucket-owner-full-control, …'),
    endpoint: text('an S3-compatible origin, e.g. https://s3.example.com'),
  }),
})
/** `{ provider: "shotstack", exclude: true }`: do not keep the files in reelforge's own storage. */
export const HostedDestinationSchema = v.object({ provider: v.literal('shotstack'), exclude: v.optional(BoolLike) })
/** What an edit may name: any `{ provider, … }` (another provider is reported as a failed destination); documented as the two above. */
export const DestinationEntrySchema = v.looseObject({ provider: v.string() })

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
  destinations: v.optional(v.array(DestinationEntrySchema)),
})
export type OutputInput = v.InferInput<typeof OutputSchema>
export type OutputSettings = v.InferOutput<typeof OutputSchema>
