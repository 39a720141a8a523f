import { CaptionAssetSchema, defineAssetPlugin } from '../../core/index.js'
import { loadCues } from '../lib/text/cues.js'
import { drawTextBox, type TextStyle } from '../lib/text/draw.js'
import { redrawingSource } from '../lib/text/source.js'
import { cueAt } from '../lib/text/subtitles.js'
import { face, weightOf, withOpacity } from './text.js'

/**
 * `caption`: subtitles burnt in from an SRT/VTT/TTML file (or the text of an aliased text-to-speech clip).
 * Each cue is drawn once when it comes up, centred near the bottom of the clip's box (or below
 * `margin.top`), inside the left/right margins, with the font's stroke and a padded background behind it.
 * `trim` skips into the subtitles and `speed` plays them faster, as for the video they belong to.
 */
export const caption = defineAssetPlugin({
  kind: 'asset',
  name: 'caption',
  schema: CaptionAssetSchema,
  async prepare(params, ctx) {
    const cues = await loadCues(params.src, ctx)
    const box = ctx.box ?? ctx.frame
    const font = params.font ?? {}
    const margin = params.margin ?? {}
    const bg = params.background
    // Pixel sizes are output pixels; without one, a size readable at any resolution (48 px at 1080p).
    const size = font.size ?? Math.round(box.height * 0.045)
    const padding = bg?.padding ?? 0
    const style: TextStyle = {
      face: face(ctx.fonts, font.family ?? 'Open Sans', weightOf(undefined), ctx),
      size,
      color: font.color ?? '#ffffff',
      opacity: font.opacity ?? 1,
      lineHeight: font.lineHeight ?? 1.2,
      letterSpacing: 0,
      transform: 'none',
      decoration: 'none',
      stroke: font.strokeWidth ? { width: font.strokeWidth, color: font.stroke ?? '#000000' } : undefined,
      background: bg?.color ? { color: withOpacity(bg.color, bg.opacity), radius: bg.borderRadius ?? 0, mode: 'hug', padding } : undefined,
      padding: {
        top: margin.top !== undefined ? margin.top * box.height + padding : 0,
        bottom: margin.top !== undefined ? 0 : box.height * 0.06 + padding,
        left: (margin.left ?? 0.05) * box.width + padding,
        right: (margin.right ?? 0.05) * box.width + padding,
      },
      align: { h: 'center', v: margin.top !== undefined ? 'top' : 'bottom' },
    }
    const trim = params.trim ?? 0
    const speed = params.speed && params.speed > 0 ? params.speed : 1
    const at = (t: number) => cueAt(cues, trim + t * speed)
    return {
      size: box,
      static: cues.length === 0,
      defaultFit: 'none',
      async open(gpu, need) {
        return redrawingSource(
          gpu,
          need,
          (t) => String(at(t) ? cues.indexOf(at(t)!) : -1),
          (t) => {
            const cue = at(t)
            return cue ? drawTextBox(cue.text, style, box, need) : null
          },
        )
      },
    }
  },
})
