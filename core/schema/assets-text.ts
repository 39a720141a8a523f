import * as v from 'valibot'
import { BoolLike, Color, num, oneOf, show, Src } from './primitives.js'
import { POSITIONS } from './names.js'

export const TITLE_STYLES = ['minimal', 'blockbuster', 'vogue', 'sketchy', 'skinny', 'chunk', 'chunkLight', 'marker', 'future', 'subtitle'] as const
export const TITLE_SIZES = ['xx-small', 'x-small', 'small', 'medium', 'large', 'x-large', 'xx-large'] as const

/** `title` (deprecated in Shotstack, in the seed): a styled line of text on a frame-sized layer. */
export const TitleAssetSchema = v.object({
  type: v.literal('title'),
  text: v.string((i) => `must be a string, got ${show(i.input)}`),
  style: v.optional(oneOf(TITLE_STYLES), 'minimal'),
  color: v.optional(Color),
  size: v.optional(oneOf(TITLE_SIZES), 'medium'),
  background: v.optional(Color),
  position: v.optional(oneOf(POSITIONS), 'center'),
  offset: v.optional(v.object({ x: v.optional(num(-10, 10)), y: v.optional(num(-10, 10)) })),
})
export type TitleAsset = v.InferOutput<typeof TitleAssetSchema>

// Any number: Studio's own test edits send 0, -100 and 1200 and expect clamping to 100..900.
const Weight = v.union([num(), v.string()])
const StrokeSchema = v.object({ width: v.optional(num(0, 100)), color: v.optional(Color), opacity: v.optional(num(0, 1)) })
const ShadowSchema = v.object({
  offsetX: v.optional(num()),
  offsetY: v.optional(num()),
  blur: v.optional(num(0)),
  color: v.optional(Color),
  opacity: v.optional(num(0, 1)),
})
const BoxBackground = v.object({
  color: v.optional(Color),
  opacity: v.optional(num(0, 1)),
  padding: v.optional(num(0, 500)),
  borderRadius: v.optional(num(0)),
  wrap: v.optional(BoolLike),
})
const Padding = v.union([num(0), v.object({ top: v.optional(num(0)), right: v.optional(num(0)), bottom: v.optional(num(0)), left: v.optional(num(0)) })])

/** `text`: plain text in a box, with font, alignment, background and stroke. */
export const TextAssetSchema = v.object({
  type: v.literal('text'),
  text: v.string(),
  width: v.optional(num(1)),
  height: v.optional(num(1)),
  font: v.optional(
    v.object({
      family: v.optional(v.string()),
      color: v.optional(Color),
      opacity: v.optional(num(0, 1)),
      size: v.optional(num(1, 1000)),
      weight: v.optional(Weight),
      lineHeight: v.optional(num(0, 10)),
    }),
  ),
  background: v.optional(BoxBackground),
  alignment: v.optional(
    v.object({ horizontal: v.optional(oneOf(['left', 'center', 'right'] as const)), vertical: v.optional(oneOf(['top', 'center', 'bottom'] as const)) }),
  ),
  stroke: v.optional(StrokeSchema),
  animation: v.optional(v.object({ preset: v.string(), duration: v.optional(num(0.1, 30)) })),
  ellipsis: v.optional(v.string()),
})

const RichFont = v.object({
  family: v.optional(v.string()),
  style: v.optional(oneOf(['normal', 'italic', 'oblique'] as const)),
  size: v.optional(num(1, 500)),
  weight: v.optional(Weight),
  color: v.optional(Color),
  opacity: v.optional(num(0, 1)),
  background: v.optional(Color),
  stroke: v.optional(v.unknown()),
})
const RichStyle = v.object({
  letterSpacing: v.optional(num()),
  wordSpacing: v.optional(num()),
  lineHeight: v.optional(num(0, 10)),
  textTransform: v.optional(oneOf(['none', 'uppercase', 'lowercase', 'capitalize'] as const)),
  textDecoration: v.optional(oneOf(['none', 'underline', 'line-through'] as const)),
  gradient: v.optional(
    v.object({
      type: v.optional(oneOf(['linear', 'radial'] as const)),
      angle: v.optional(num(0, 360)),
      stops: v.array(v.object({ offset: num(0, 1), color: Color })),
    }),
  ),
  size: v.optional(num(1, 500)),
})
const RichAlign = v.object({
  horizontal: v.optional(oneOf(['left', 'center', 'right'] as const)),
  vertical: v.optional(oneOf(['top', 'middle', 'bottom', 'center'] as const)),
})
const Border = v.object({ width: v.optional(num(0)), color: v.optional(Color), opacity: v.optional(num(0, 1)), radius: v.optional(num(0)) })

/** Styling shared by rich-text and rich-caption. */
const RICH_STYLING = {
  font: v.optional(RichFont),
  style: v.optional(RichStyle),
  stroke: v.optional(StrokeSchema),
  shadow: v.optional(ShadowSchema),
  background: v.optional(BoxBackground),
  border: v.optional(Border),
  padding: v.optional(Padding),
  align: v.optional(RichAlign),
}

/** `rich-text`: styled text (gradient, shadow, stroke, spacing, animation presets) in the clip's box. */
export const RichTextAssetSchema = v.object({
  type: v.literal('rich-text'),
  text: v.pipe(v.string(), v.maxLength(5000, 'must be at most 5000 characters')),
  ...RICH_STYLING,
  animation: v.optional(
    v.object({
      preset: oneOf(['fadeIn', 'slideIn', 'typewriter', 'ascend', 'shift', 'movingLetters'] as const),
      duration: v.optional(num(0.1, 30)),
      /** Studio's playback-rate multiplier: the animation lasts `duration / speed`. */
      speed: v.optional(num(0.01, 100)),
      style: v.optional(oneOf(['character', 'word'] as const)),
      direction: v.optional(oneOf(['left', 'right', 'up', 'down'] as const)),
    }),
  ),
  width: v.optional(num(1)),
  height: v.optional(num(1)),
  cacheEnabled: v.optional(BoolLike),
  pixelRatio: v.optional(num(0.1, 10)),
})

/** `caption`: subtitles from an SRT/VTT file. */
export const CaptionAssetSchema = v.object({
  type: v.literal('caption'),
  src: Src,
  font: v.optional(
    v.object({
      family: v.optional(v.string()),
      color: v.optional(Color),
      opacity: v.optional(num(0, 1)),
      size: v.optional(num(1, 1000)),
      lineHeight: v.optional(num(0, 10)),
      stroke: v.optional(Color),
      strokeWidth: v.optional(num(0)),
    }),
  ),
  background: v.optional(BoxBackground),
  margin: v.optional(v.object({ top: v.optional(num()), left: v.optional(num()), right: v.optional(num()) })),
  trim: v.optional(num(0), 0),
  speed: v.optional(num(0, 10)),
})

/** `rich-caption`: word-timed captions with active-word styling. */
export const RichCaptionAssetSchema = v.object({
  type: v.literal('rich-caption'),
  src: Src,
  ...RICH_STYLING,
  active: v.optional(
    v.object({
      font: v.optional(
        v.object({
          family: v.optional(v.string()),
          weight: v.optional(Weight),
          color: v.optional(Color),
          background: v.optional(Color),
          opacity: v.optional(num(0, 1)),
          size: v.optional(num(1, 500)),
          textDecoration: v.optional(oneOf(['none', 'underline', 'line-through'] as const)),
        }),
      ),
      stroke: v.optional(v.union([v.literal('none'), StrokeSchema])),
      shadow: v.optional(v.union([v.literal('none'), ShadowSchema])),
    }),
  ),
  animation: v.optional(
    v.object({
      style: oneOf(['karaoke', 'highlight', 'pop', 'fade', 'slide', 'bounce', 'typewriter', 'none'] as const),
      direction: v.optional(oneOf(['left', 'right', 'up', 'down'] as const)),
    }),
  ),
  width: v.optional(num(1)),
  height: v.optional(num(1)),
})
