import { bleedTexels, defineAssetPlugin, TextAssetSchema, type FontBook, type PrepareContext } from '../../core/index.js'
import { textBleed, withMargin } from '../lib/text/bleed.js'
import { drawTextBox, preset, type TextStyle } from '../lib/text/draw.js'
import { redrawingSource } from '../lib/text/source.js'

/**
 * `text`: plain text in a `width`×`height` box (default: the frame), laid out at its own pixel size (fit
 * `none` unless the clip says otherwise): font, colour, size, weight, line height, alignment, a background
 * filling the box (rounded by `borderRadius`), a stroke, and the `typewriter` animation.
 */
export const text = defineAssetPlugin({
  kind: 'asset',
  name: 'text',
  schema: TextAssetSchema,
  async prepare(params, ctx) {
    const box = { width: params.width ?? ctx.frame.width, height: params.height ?? ctx.frame.height }
    const font = params.font ?? {}
    const style: TextStyle = {
      face: face(ctx.fonts, font.family, weightOf(font.weight), ctx),
      size: font.size ?? 32,
      color: font.color ?? '#ffffff',
      opacity: font.opacity ?? 1,
      lineHeight: font.lineHeight ?? 1.2,
      letterSpacing: 0,
      transform: 'none',
      decoration: 'none',
      stroke: params.stroke?.width ? { width: params.stroke.width, color: params.stroke.color ?? '#000000' } : undefined,
      background: params.background?.color
        ? {
            color: withOpacity(params.background.color, params.background.opacity),
            radius: params.background.borderRadius ?? 0,
            // The whole box, as Shotstack draws it: real edits make panels of `text: ""` with a background.
            // `padding` does not move the text there either.
            mode: 'box',
            padding: 0,
          }
        : undefined,
      padding: { top: 0, right: 0, bottom: 0, left: 0 },
      align: {
        h: params.alignment?.horizontal ?? 'center',
        v: ({ top: 'top', center: 'middle', bottom: 'bottom' } as const)[params.alignment?.vertical ?? 'center'],
      },
      placement: 'shotstack',
    }
    const anim = params.animation
    const duration = anim?.duration ?? 1.5
    if (anim && anim.preset !== 'typewriter') ctx.warn(`text animation "${anim.preset}" is not supported; the text appears without it`)
    const animated = anim?.preset === 'typewriter'
    // Glyphs past the box are drawn, as Shotstack draws them.
    const bleed = textBleed(params.text, style, box, ctx.frame)
    return {
      size: box,
      bleed,
      static: !animated,
      defaultFit: 'none',
      async open(gpu, need) {
        const at = (t: number) => (animated ? preset('typewriter', t, duration, style.size) : undefined)
        // Typewriter changes only when another character appears.
        const key = (t: number) => (animated && t < duration ? String(Math.floor((t / duration) * params.text.length)) : 'final')
        const margin = bleedTexels(bleed, box, need)
        return redrawingSource(gpu, withMargin(need, margin), key, (t) => drawTextBox(params.text, style, box, need, at(t), margin))
      },
    }
  },
})

/** Numeric weights; names like "bold" map to CSS numbers. */
export function weightOf(w: number | string | undefined): number {
  if (w === undefined) return 400
  if (typeof w === 'number') return w
  const named: Record<string, number> = { thin: 100, light: 300, normal: 400, regular: 400, medium: 500, semibold: 600, bold: 700, extrabold: 800, black: 900 }
  return named[w.toLowerCase().replace(/[\s-]/g, '')] ?? (Number(w) || 400)
}

/** The font face for a family (default Open Sans), warning once when it falls back. */
export function face(fonts: FontBook, family: string | undefined, weight: number, ctx: Pick<PrepareContext, 'warn'>, style: 'normal' | 'italic' = 'normal') {
  const { face, substituted } = fonts.resolve(family ?? 'Open Sans', weight, style)
  if (substituted) ctx.warn(`font "${family}" is not available; using "${face.family}"`)
  return face
}

/** A colour with an extra opacity folded in, as rgba(). */
export function withOpacity(color: string, opacity: number | undefined): string {
  if (opacity === undefined || opacity >= 1) return color
  const hex = /^#([0-9a-f]{6})$/i.exec(color)?.[1]
  if (!hex) return color
  const n = (i: number) => parseInt(hex.slice(i, i + 2), 16)
  return `rgba(${n(0)}, ${n(2)}, ${n(4)}, ${opacity})`
}
