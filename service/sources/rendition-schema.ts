import * as v from 'valibot'
import { ASPECT_RATIOS, BoolLike, FPS_VALUES, int, num, oneOf, show, sizeFor } from '../../core/index.js'

/** What each rendition format is: a moving picture (made from a video source) or one still frame. */
export const RENDITION_FORMATS = { mp4: 'video', webm: 'video', mov: 'video', gif: 'video', jpg: 'image', png: 'image', webp: 'image' } as const
export type RenditionFormat = keyof typeof RENDITION_FORMATS
/** Shotstack's rendition presets (`fhd`), with the Edit API's spellings `1080` and `4k`. */
export const RENDITION_RESOLUTIONS = ['preview', 'mobile', 'sd', 'hd', 'fhd', '1080', '4k'] as const
/** crop (default): fill and cut the overflow; cover: stretch; contain: fit whole, bars around; none: no scaling. */
export const RENDITION_FITS = ['crop', 'cover', 'contain', 'none'] as const
export const MAX_RENDITIONS = 10

const Fps = v.pipe(
  num(),
  v.check(
    (n: number) => (FPS_VALUES as readonly number[]).includes(n),
    (i) => `must be one of ${FPS_VALUES.join(', ')}; got ${show(i.input)}`,
  ),
)
const Size = v.pipe(
  v.strictObject({ width: v.optional(int(1, 4096)), height: v.optional(int(1, 4096)) }),
  v.check((s) => s.width !== undefined || s.height !== undefined, 'needs width, height or both'),
)
// The stored file is `<source id>/<filename>.<format>`: a plain name, its extension added.
const Filename = v.pipe(
  v.string(),
  v.regex(/^(?!.*\.\.)[A-Za-z0-9_-][A-Za-z0-9._-]{0,79}$/, (i) => `must be 1–80 letters, digits, '.', '_' or '-' (no '..'); got ${show(i.input)}`),
)
/** Shotstack fields this service does not do: a 400 that says so, rather than "not a known field". */
const Unsupported = v.optional(v.custom<never>(() => false, 'is not supported by this service yet'))

/** One of Shotstack's `outputs.renditions`: a new file made from the source (service/sources/renditions.ts). */
export const RenditionSchema = v.pipe(
  v.strictObject({
    format: v.optional(oneOf(Object.keys(RENDITION_FORMATS) as RenditionFormat[])),
    size: v.optional(Size),
    resolution: v.optional(oneOf(RENDITION_RESOLUTIONS)),
    aspectRatio: v.optional(oneOf(ASPECT_RATIOS)),
    fit: v.optional(oneOf(RENDITION_FITS)),
    quality: v.optional(int(1, 100)),
    fps: v.optional(Fps),
    keyframeInterval: v.optional(int(1, 300)),
    fixRotation: v.optional(BoolLike),
    filename: v.optional(Filename),
    speed: Unsupported,
    fixOffset: Unsupported,
    enhance: Unsupported,
  }),
  v.forward(
    v.check((r) => !r.size || (!r.resolution && !r.aspectRatio), 'give size, or resolution and aspectRatio, not both'),
    ['size'],
  ),
)
export type Rendition = v.InferOutput<typeof RenditionSchema>

/** `renditions` of `POST /v1/sources`: at most 10, no two writing the same file. */
export const RenditionsSchema = v.pipe(
  v.array(RenditionSchema),
  v.maxLength(MAX_RENDITIONS, (i) => `must have at most ${MAX_RENDITIONS} renditions, got ${(i.input as unknown[]).length}`),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return
    const seen = new Set<string>()
    dataset.value.forEach((r, i) => {
      const name = r.filename && `${r.filename}.${r.format ?? ''}`
      if (name && seen.has(name)) {
        const item: v.IssuePathItem = { type: 'array', origin: 'value', input: dataset.value, key: i, value: r }
        const field: v.IssuePathItem = { type: 'object', origin: 'value', input: r, key: 'filename', value: r.filename }
        addIssue({ message: `${show(r.filename)} is the filename of an earlier rendition of the same format`, path: [item, field] })
      }
      if (name) seen.add(name)
    })
  }),
)

export interface Box {
  width: number
  height: number
}
const even = (n: number) => Math.max(2, 2 * Math.round(n / 2))

/**
 * The rendition's pixel size from its source's (upright) size: `size` (one side alone keeps the source's
 * shape), `resolution` × `aspectRatio` as the Edit API sizes outputs, `aspectRatio` alone as the largest box of
 * that shape inside the source, else the source's size. Video formats get even sides (yuv420p).
 */
export function renditionSize(r: Rendition, source: Box, format: RenditionFormat): Box {
  const round = RENDITION_FORMATS[format] === 'video' ? even : (n: number) => Math.max(1, Math.round(n))
  let box: Box = source
  if (r.size) {
    const { width, height } = r.size
    box = { width: width ?? ((height ?? 0) * source.width) / source.height, height: height ?? ((width ?? 0) * source.height) / source.width }
  } else if (r.resolution) box = sizeFor(r.resolution === 'fhd' ? '1080' : r.resolution, r.aspectRatio ?? '16:9')
  else if (r.aspectRatio) {
    const [w, h] = r.aspectRatio.split(':').map(Number) as [number, number]
    box =
      source.width / source.height > w / h ? { width: (source.height * w) / h, height: source.height } : { width: source.width, height: (source.width * h) / w }
  }
  return { width: round(box.width), height: round(box.height) }
}
