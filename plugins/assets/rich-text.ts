import type { InferOutput } from 'valibot'
import { bleedTexels, defineAssetPlugin, RichTextAssetSchema, type PrepareContext } from '../../core/index.js'
import { textBleed, withMargin } from '../lib/text/bleed.js'
import { drawTextBox, preset, type TextStyle } from '../lib/text/draw.js'
import { redrawingSource } from '../lib/text/source.js'
import { face, weightOf, withOpacity } from './text.js'

/**
 * `rich-text`: styled text in the clip's box (`width`/`height` on the clip or the asset; default the frame):
 * font, gradient, letter spacing, text transform and decoration, stroke, shadow, a background (the whole
 * box, or a pill per line with `wrap`), border, padding, alignment, and the animation presets fadeIn,
 * slideIn, typewriter, ascend, shift and movingLetters.
 */
export const richText = defineAssetPlugin({
  kind: 'asset',
  name: 'rich-text',
  schema: RichTextAssetSchema,
  async prepare(params, ctx) {
    const box = { width: params.width ?? ctx.box?.width ?? ctx.frame.width, height: params.height ?? ctx.box?.height ?? ctx.frame.height }
    // Placed as Shotstack's text engine places rich-text (rich-caption keeps its line boxes).
    const style: TextStyle = { ...richStyle(params, ctx, { family: 'Open Sans', size: 24, color: '#000000' }), placement: 'shotstack' }
    const anim = params.animation
    const duration = (anim?.duration ?? 1) / (anim?.speed ?? 1)
    // Glyphs past the box are drawn, as Shotstack draws them.
    const bleed = textBleed(params.text, style, box, ctx.frame)
    return {
      size: box,
      bleed,
      static: !anim,
      defaultFit: 'none',
      async open(gpu, need) {
        const frameKey = (t: number) => (anim && t < duration ? `t${Math.round(t * 1000)}` : 'final')
        const margin = bleedTexels(bleed, box, need)
        return redrawingSource(gpu, withMargin(need, margin), frameKey, (t) =>
          drawTextBox(
            params.text,
            style,
            box,
            need,
            anim ? preset(anim.preset, t, duration, style.size, { style: anim.style, direction: anim.direction }) : undefined,
            margin,
          ),
        )
      },
    }
  },
})

/** The rich-text styling fields (shared with rich-caption). */
type RichStyling = Pick<InferOutput<typeof RichTextAssetSchema>, 'font' | 'style' | 'padding' | 'shadow' | 'stroke' | 'background' | 'border' | 'align'>

/** A `TextStyle` from rich-text styling fields; `defaults` are the asset type's own (rich-caption differs). */
export function richStyle(
  params: RichStyling,
  ctx: Pick<PrepareContext, 'fonts' | 'warn'>,
  defaults: { family: string; size: number; color: string },
): TextStyle {
  const font = params.font ?? {}
  const st = params.style ?? {}
  const pad = params.padding === undefined ? 0 : params.padding
  const padding =
    typeof pad === 'number'
      ? { top: pad, right: pad, bottom: pad, left: pad }
      : { top: pad.top ?? 0, right: pad.right ?? 0, bottom: pad.bottom ?? 0, left: pad.left ?? 0 }
  const shadow = params.shadow
  const slanted = font.style === 'italic' || font.style === 'oblique'
  const chosen = face(ctx.fonts, font.family ?? defaults.family, weightOf(font.weight), ctx, slanted ? 'italic' : 'normal')
  return {
    face: chosen,
    oblique: slanted && chosen.style !== 'italic',
    size: font.size ?? st.size ?? defaults.size,
    color: font.color ?? defaults.color,
    opacity: font.opacity ?? 1,
    lineHeight: st.lineHeight ?? 1.2,
    letterSpacing: st.letterSpacing ?? 0,
    transform: st.textTransform ?? 'none',
    decoration: st.textDecoration ?? 'none',
    gradient: st.gradient
      ? {
          type: st.gradient.type ?? 'linear',
          angle: st.gradient.angle ?? 0,
          stops: st.gradient.stops.map((s) => ({ offset: s.offset, color: s.color ?? '#000000' })),
        }
      : undefined,
    stroke: params.stroke?.width ? { width: params.stroke.width, color: withOpacity(params.stroke.color ?? '#000000', params.stroke.opacity) } : undefined,
    shadow: shadow
      ? {
          offsetX: shadow.offsetX ?? 0,
          offsetY: shadow.offsetY ?? 0,
          blur: shadow.blur ?? 0,
          color: withOpacity(shadow.color ?? '#000000', shadow.opacity ?? 0.5),
        }
      : undefined,
    background: params.background?.color
      ? {
          color: withOpacity(params.background.color, params.background.opacity),
          radius: params.background.borderRadius ?? 0,
          mode: params.background.wrap ? 'wrap' : 'box',
          padding: params.background.padding ?? 0,
        }
      : undefined,
    border: params.border?.width
      ? { width: params.border.width, color: withOpacity(params.border.color ?? '#000000', params.border.opacity), radius: params.border.radius ?? 0 }
      : undefined,
    padding,
    align: { h: params.align?.horizontal ?? 'center', v: params.align?.vertical === 'center' ? 'middle' : (params.align?.vertical ?? 'middle') },
  }
}
