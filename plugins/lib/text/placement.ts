import { createCanvas } from '@napi-rs/canvas'
import type { FontFace } from '../../../core/index.js'
import { canvasFont } from '../fonts/canvas.js'

/**
 * How a block of lines sits vertically in its box.
 * - `line-boxes` (captions): the lines are `lineHeight` tall boxes stacked and aligned like CSS blocks, each
 *   baseline at 0.8 em plus half the leading inside its box.
 * - `shotstack` (rich-text and text, as Shotstack's HarfBuzz text engine places them): `top` puts the first
 *   baseline one em below the top edge (the em square of the first line against it), `bottom` puts the last
 *   baseline on the bottom edge (descenders hang past it), and `middle` centres the glyphs' ink — from the
 *   highest glyph of the block to its lowest — on the box's centre. Derived from the font's metrics against
 *   Shotstack's output for Open Sans Bold at 32, 64 and 120 px (docs/timeline.md, "Text placement").
 */
export type Placement = 'line-boxes' | 'shotstack'

/** What the placement needs of a style (box pixels). */
export interface PlacedStyle {
  face: FontFace
  size: number
  lineHeight: number
  placement?: Placement
  align: { v: 'top' | 'middle' | 'bottom' }
}

/** Where the first baseline sits below the top of its line box: the ascent (0.8 em) plus half the leading. */
export const lineBoxAscent = (style: Pick<PlacedStyle, 'size' | 'lineHeight'>) => style.size * 0.8 + (style.size * style.lineHeight - style.size) / 2

/** The top of the first line box, from the top of a text area `height` tall. */
export function linesTop(style: PlacedStyle, lines: string[], height: number): number {
  const lineH = style.size * style.lineHeight
  const v = style.align.v
  if (style.placement !== 'shotstack') {
    const blockH = lines.length * lineH
    return v === 'top' ? 0 : v === 'middle' ? (height - blockH) / 2 : height - blockH
  }
  const last = (lines.length - 1) * lineH
  let baseline = style.size
  if (v === 'bottom') baseline = height - last
  if (v === 'middle') {
    const ink = lines.map((line) => inkOf(style.face, line, style.size))
    const top = Math.min(...ink.map((l, i) => i * lineH - l.ascent))
    const bottom = Math.max(...ink.map((l, i) => i * lineH + l.descent))
    baseline = height / 2 - (top + bottom) / 2
  }
  return baseline - lineBoxAscent(style)
}

/**
 * Skia rounds a text's ink bounds out to whole pixels of the size it measures at, and above 256 px measures
 * from a coarser cached size; at 256 px the bounds are within 1/256 em of the glyphs' outlines.
 */
const INK_PX = 256
const measurer = createCanvas(1, 1).getContext('2d')

/** How far `line`'s glyphs reach above and below the baseline at `size` px. */
export function inkOf(face: FontFace, line: string, size: number): { ascent: number; descent: number } {
  if (!line.trim()) return { ascent: 0, descent: 0 }
  measurer.font = canvasFont(face, INK_PX)
  const m = measurer.measureText(line)
  return { ascent: (m.actualBoundingBoxAscent * size) / INK_PX, descent: (m.actualBoundingBoxDescent * size) / INK_PX }
}
