import * as v from 'valibot'
import { num, OutputSchema, Src } from '../../core/index.js'

/**
 * `POST /v1/stitch`: videos played one after another. The seed names the endpoint without a payload; this
 * is reelforge's: `{ clips: [{ src, trim?, length? }], output, callback? }`. Strict — unknown fields are
 * errors, since this body is reelforge's own.
 */
export const StitchSchema = v.strictObject({
  clips: v.pipe(
    v.array(
      v.strictObject({
        src: Src,
        trim: v.optional(num(0)),
        length: v.optional(
          v.pipe(
            num(0),
            v.check((n: number) => n > 0, 'must be greater than 0'),
          ),
        ),
      }),
    ),
    v.minLength(1, 'must hold at least one clip'),
    v.maxLength(500, 'must hold at most 500 clips'),
  ),
  output: v.optional(OutputSchema, {}),
  callback: v.optional(v.pipe(v.string(), v.url('must be an absolute URL'))),
})
export type StitchRequest = v.InferOutput<typeof StitchSchema>

/** The Shotstack edit a stitch renders: one track of video clips, each starting when the previous ends. */
export function stitchToEdit(stitch: StitchRequest) {
  return {
    timeline: {
      tracks: [
        {
          clips: stitch.clips.map((c) => ({ asset: { type: 'video', src: c.src, trim: c.trim ?? 0 }, start: 'auto', length: c.length ?? 'auto' })),
        },
      ],
    },
    output: stitch.output,
  }
}
