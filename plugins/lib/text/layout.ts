import type { SKRSContext2D } from '@napi-rs/canvas'
import type { Size } from '../../../core/index.js'
import type { TextStyle } from './draw.js'
import { lineBoxAscent, linesTop } from './placement.js'
import { wrapText } from './wrap.js'

/** Where a text box's lines go (box pixels): what drawing them and measuring their reach both start from. */
export interface TextLayout {
  lines: string[]
  widths: number[]
  /** The area inside the padding. */
  inner: Size
  /** Baseline to baseline. */
  lineH: number
  /** The top of the first line box. */
  top: number
  /** The first line's baseline below `top`. */
  ascent: number
}

/** Wraps and places `text` in `box`; `g` measures, with the style's font and letter spacing already set. */
export function layoutText(g: SKRSContext2D, text: string, style: TextStyle, box: Size): TextLayout {
  const p = style.padding
  const inner = { width: Math.max(1, box.width - p.left - p.right), height: Math.max(1, box.height - p.top - p.bottom) }
  const measure = (s: string) => g.measureText(s).width
  const lines = wrapText(transformText(text, style.transform), inner.width, measure)
  return {
    lines,
    widths: lines.map(measure),
    inner,
    lineH: style.size * style.lineHeight,
    top: p.top + linesTop(style, lines, inner.height),
    ascent: lineBoxAscent(style),
  }
}

export function transformText(text: string, t: TextStyle['transform']): string {
  if (t === 'uppercase') return text.toUpperCase()
  if (t === 'lowercase') return text.toLowerCase()
  if (t === 'capitalize') return text.replace(/(^|\s)(\p{L})/gu, (_, s: string, c: string) => s + c.toUpperCase())
  return text
}
