import { createCanvas } from '@napi-rs/canvas'
import type { Bleed, Size } from '../../../core/index.js'
import { canvasFont } from '../fonts/canvas.js'
import type { TextStyle } from './draw.js'
import { layoutText } from './layout.js'
import { inkOf } from './placement.js'

const measurer = createCanvas(1, 1).getContext('2d')

/**
 * How far `text`'s glyphs reach above and below its `box` (box pixels), for the asset's `bleed`: Shotstack's text
 * engine does not clip text at its box, so descenders hanging below a `bottom`-aligned line, accents rising above
 * a `top`-aligned one, and lines that do not fit are drawn past its edges. Counts each line's ink (from the
 * glyphs' outlines), the stroke and a shadow (its blur reaches about 1.5 × `blur`), plus a pixel for skia's
 * grid-fitting and the baseline's snapping to a whole pixel; at most `frame`'s larger side each way (ten thousand
 * characters in a small box would otherwise ask for a texture taller than any GPU holds). Animated travel
 * (slideIn and the like) is not counted: mid-move, text is cut where the bleed ends. Sideways nothing is added:
 * lines are wrapped to fit the box's width.
 */
export function textBleed(text: string, style: TextStyle, box: Size, frame: Size): Bleed {
  measurer.font = canvasFont(style.face, style.size)
  measurer.letterSpacing = `${style.letterSpacing}px`
  const { lines, lineH, top, ascent } = layoutText(measurer, text, style, box)
  let high = Infinity,
    low = -Infinity
  lines.forEach((line, i) => {
    const ink = inkOf(style.face, line, style.size)
    if (!ink.ascent && !ink.descent) return
    const baseline = top + i * lineH + ascent
    high = Math.min(high, baseline - ink.ascent)
    low = Math.max(low, baseline + ink.descent)
  })
  if (high === Infinity) return { top: 0, right: 0, bottom: 0, left: 0 }
  if (style.decoration === 'underline') low = Math.max(low, top + (lines.length - 1) * lineH + ascent + style.size * (0.1 + 1 / 15))
  const stroke = style.stroke?.width ?? 0
  const shadow = style.shadow
  const above = stroke + (shadow ? Math.max(0, 1.5 * shadow.blur - shadow.offsetY) : 0) + 1
  const below = stroke + (shadow ? Math.max(0, 1.5 * shadow.blur + shadow.offsetY) : 0) + 1
  const most = Math.max(frame.width, frame.height)
  const clamp = (n: number) => Math.min(most, Math.max(0, n))
  return { top: clamp(above - high), right: 0, bottom: clamp(low + below - box.height), left: 0 }
}

/** A texture of `need` texels with `margin` texels around it. */
export const withMargin = (need: Size, margin: Bleed): Size => ({
  width: margin.left + need.width + margin.right,
  height: margin.top + need.height + margin.bottom,
})
