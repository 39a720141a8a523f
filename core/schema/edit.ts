import * as v from 'valibot'
import { TrackSchema } from './clip.js'
import { OutputSchema } from './output.js'
import { AudioEffect } from './assets-media.js'
import { BoolLike, Color, num, show, Src } from './primitives.js'

/** `timeline.soundtrack`: the seed's plain URL string, or Shotstack's `{src, effect, volume}`. */
export const SoundtrackSchema = v.union(
  [
    v.pipe(
      Src,
      v.transform((src) => ({ src, effect: undefined as v.InferOutput<typeof AudioEffect> | undefined, volume: undefined as number | undefined })),
    ),
    v.object({ src: Src, effect: v.optional(AudioEffect), volume: v.optional(num(0, 1)) }),
  ],
  (i) => `must be a URL string or {src, effect, volume}; got ${show(i.input)}`,
)

export const FontSchema = v.object({ src: Src })

/** The timeline: ordered tracks (tracks[0] on top), background colour, custom fonts, soundtrack. */
export const TimelineSchema = v.object({
  tracks: v.pipe(
    v.array(TrackSchema, (i) => `must be an array of tracks, got ${show(i.input)}`),
    v.minLength(1, 'must hold at least one track'),
  ),
  background: v.optional(Color),
  fonts: v.optional(v.array(FontSchema)),
  soundtrack: v.optional(SoundtrackSchema),
  cache: v.optional(BoolLike),
})
export type TimelineOutput = v.InferOutput<typeof TimelineSchema>

/** `{ find, replace }`: `{{ find }}` anywhere in the edit becomes `replace` (typed by the value). */
export const MergeFieldSchema = v.object({
  find: v.pipe(v.string(), v.minLength(1, 'must not be empty')),
  replace: v.unknown(),
})

/** The whole Shotstack Edit: what `POST /v1/render` takes and what `renderer.render()` renders. */
export const EditSchema = v.object({
  timeline: TimelineSchema,
  output: v.optional(OutputSchema, {}),
  merge: v.optional(v.array(MergeFieldSchema)),
  callback: v.optional(
    v.pipe(
      v.string(),
      v.url((i) => `must be an absolute URL, got ${show(i.input)}`),
    ),
  ),
  disk: v.optional(v.picklist(['local', 'mount'])),
  instance: v.optional(v.picklist(['s1', 's2', 'a1'])),
})
export type EditInput = v.InferInput<typeof EditSchema>
/**
 * An edit as you write it (Shotstack's Edit): what `renderer.render()` takes, so an edit literal type-checks.
 * Edits read from JSON are `any` and are checked at run time instead (`renderer.validate`). It is `EditInput`
 * written out (edit-type.ts, generated): the inferred form is too deep for apps' compilers in a .d.ts. Narrower
 * than the schema where a compiler can help: each asset has its own fields (`AssetTypes`), and transition, effect,
 * filter, font and output names are the known ones (edit-names.ts), to which plugins add theirs.
 */
export type { Edit } from './edit-type.js'
/** What `EditSchema` makes of an edit, written out (edit-output.ts, generated) for the same reason as `Edit`. */
export type { EditOutput } from './edit-output.js'
