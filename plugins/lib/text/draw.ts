import { createCanvas, type SKRSContext2D } from '@napi-rs/canvas'
import { cssColor, easing, type Bleed, type FontFace, type Size } from '../../../core/index.js'
import { canvasFont } from '../fonts/canvas.js'
import { layoutText } from './layout.js'
import type { Placement } from './placement.js'

/** Everything a text box looks like (sizes in box pixels, before scaling to the drawn size). */
export interface TextStyle {
  face: FontFace
  size: number
  color: string
  opacity: number
  lineHeight: number
  letterSpacing: number
  transform: 'none' | 'uppercase' | 'lowercase' | 'capitalize'
  decoration: 'none' | 'underline' | 'line-through'
  /** Slanted (italic) when the face itself is upright: a synthetic oblique of about 12°. */
  oblique?: boolean
  gradient?: { type: 'linear' | 'radial'; angle: number; stops: { offset: number; color: string }[] }
  stroke?: { width: number; color: string }
  shadow?: { offsetX: number; offsetY: number; blur: number; color: string }
  /** Fill behind the text: the whole box, the text block (`hug`), or a pill behind each line (`wrap`). */
  background?: { color: string; radius: number; mode: 'box' | 'hug' | 'wrap'; padding: number }
  border?: { width: number; color: string; radius: number }
  padding: { top: number; right: number; bottom: number; left: number }
  align: { h: 'left' | 'center' | 'right'; v: 'top' | 'middle' | 'bottom' }
  /** How the lines sit vertically (default `line-boxes`); see `Placement`. */
  placement?: Placement
}

/** A per-unit animation: how each character or word looks at the current moment. */
export interface Animation {
  unit: 'character' | 'word' | 'all'
  /** Alpha and offset (box pixels) of unit `i` of `n`, and optionally its own look (active caption words). */
  state(i: number, n: number): UnitState
}

export interface UnitState {
  alpha: number
  dx: number
  dy: number
  /** Fill colour instead of the style's. */
  color?: string
  /** Size multiplier about the unit's centre. */
  scale?: number
  /** A box filled behind the unit. */
  background?: string
  /** Stroke instead of the style's (`null`: none). */
  stroke?: TextStyle['stroke'] | null
  shadow?: TextStyle['shadow'] | null
}

/**
 * Draws `text` in a `box` (box pixels) onto a canvas of `need` pixels, plus `margin` texels around it where the
 * glyphs may reach past the box (the asset's bleed); returns premultiplied RGBA. Backgrounds and borders stay
 * inside the box.
 */
export function drawTextBox(text: string, style: TextStyle, box: Size, need: Size, anim?: Animation, margin?: Bleed): Uint8Array {
  const m = margin ?? { top: 0, right: 0, bottom: 0, left: 0 }
  const canvas = createCanvas(m.left + need.width + m.right, m.top + need.height + m.bottom)
  const g = canvas.getContext('2d')
  g.translate(m.left, m.top)
  g.scale(need.width / box.width, need.height / box.height)
  g.font = canvasFont(style.face, style.size)
  g.letterSpacing = `${style.letterSpacing}px`
  g.textBaseline = 'alphabetic'
  const p = style.padding
  const measure = (s: string) => g.measureText(s).width
  const { lines, widths, inner, lineH, top, ascent } = layoutText(g, text, style, box)
  const blockH = lines.length * lineH
  const xOf = (w: number) => p.left + (style.align.h === 'left' ? 0 : style.align.h === 'center' ? (inner.width - w) / 2 : inner.width - w)

  g.save()
  if (margin) {
    g.beginPath()
    g.rect(0, 0, box.width, box.height)
    g.clip()
  }
  const bg = style.background
  if (bg) {
    g.fillStyle = cssColor(bg.color)
    if (bg.mode === 'box') roundRect(g, 0, 0, box.width, box.height, bg.radius, true)
    else if (bg.mode === 'hug') {
      const w = Math.max(...widths)
      roundRect(g, xOf(w) - bg.padding, top - bg.padding, w + 2 * bg.padding, blockH + 2 * bg.padding, bg.radius, true)
    } else
      lines.forEach((_, i) =>
        roundRect(g, xOf(widths[i]!) - bg.padding, top + i * lineH - bg.padding / 2, widths[i]! + 2 * bg.padding, lineH + bg.padding, bg.radius, true),
      )
  }
  if (style.border && style.border.width > 0) {
    g.strokeStyle = cssColor(style.border.color)
    g.lineWidth = style.border.width
    roundRect(g, style.border.width / 2, style.border.width / 2, box.width - style.border.width, box.height - style.border.width, style.border.radius, false)
  }
  g.restore()

  g.globalAlpha = style.opacity
  g.fillStyle = style.gradient ? gradient(g, style.gradient, { x: p.left, y: top, width: inner.width, height: blockH }) : cssColor(style.color)
  // Draw unit by unit (characters or words) when animating, else whole lines.
  const units: { text: string; x: number; y: number }[] = []
  // Skia snaps a baseline to a whole device pixel, often the one above (Open Sans at y 100.9 lands on 100);
  // rounding it here first keeps the error within half a pixel.
  const onPixel = (y: number) => Math.round((y * need.height) / box.height) / (need.height / box.height)
  lines.forEach((line, i) => {
    const y = onPixel(top + i * lineH + ascent)
    const x0 = xOf(widths[i]!)
    if (!anim || anim.unit === 'all') return units.push({ text: line, x: x0, y })
    const parts = anim.unit === 'word' ? line.split(/(\s+)/) : [...line]
    let x = x0
    for (const part of parts) {
      if (part.trim()) units.push({ text: part, x, y })
      x += measure(part)
    }
  })
  const fill = g.fillStyle
  units.forEach((u, i) => {
    const s: UnitState = anim ? anim.state(i, units.length) : { alpha: 1, dx: 0, dy: 0 }
    if (s.alpha <= 0) return
    g.save()
    g.globalAlpha = style.opacity * Math.min(1, s.alpha)
    let x = u.x + s.dx,
      y = u.y + s.dy
    const w = measure(u.text)
    if (s.scale !== undefined && s.scale !== 1) {
      // Grow about the unit's centre: move there, scale, and draw at the origin.
      const cx = x + w / 2,
        cy = y - style.size * 0.35
      g.translate(cx, cy)
      g.scale(s.scale, s.scale)
      x = -w / 2
      y = style.size * 0.35
    }
    if (style.oblique) {
      // Shear about the baseline, so the glyphs lean without moving off their line.
      g.translate(x, y)
      g.transform(1, 0, -0.21, 1, 0, 0)
      x = 0
      y = 0
    }
    if (s.background) {
      g.fillStyle = cssColor(s.background)
      const pad = style.size * 0.15
      roundRect(g, x - pad, y - style.size * 0.9, w + 2 * pad, style.size * 1.15, pad, true)
    }
    const stroke = s.stroke === undefined ? style.stroke : s.stroke
    if (stroke && stroke.width > 0) {
      g.strokeStyle = cssColor(stroke.color)
      g.lineWidth = stroke.width * 2 // centred on the outline: half of it shows outside the fill
      g.lineJoin = 'round'
      g.strokeText(u.text, x, y)
    }
    const shadow = s.shadow === undefined ? style.shadow : s.shadow
    if (shadow) {
      g.shadowColor = cssColor(shadow.color)
      g.shadowBlur = shadow.blur
      g.shadowOffsetX = shadow.offsetX
      g.shadowOffsetY = shadow.offsetY
    }
    g.fillStyle = s.color ? cssColor(s.color) : fill
    g.fillText(u.text, x, y)
    g.shadowColor = 'transparent'
    if (style.decoration !== 'none') {
      const ly = style.decoration === 'underline' ? y + style.size * 0.1 : y - style.size * 0.3
      g.fillRect(x, ly, w, Math.max(1, style.size / 15))
    }
    g.restore()
  })
  return canvas.data()
}

function roundRect(g: SKRSContext2D, x: number, y: number, w: number, h: number, r: number, fill: boolean) {
  g.beginPath()
  g.roundRect(x, y, w, h, Math.max(0, Math.min(r, w / 2, h / 2)))
  if (fill) g.fill()
  else g.stroke()
}

function gradient(g: SKRSContext2D, spec: NonNullable<TextStyle['gradient']>, r: { x: number; y: number; width: number; height: number }) {
  const cx = r.x + r.width / 2,
    cy = r.y + r.height / 2
  let grad: CanvasGradient
  if (spec.type === 'radial') grad = g.createRadialGradient(cx, cy, 0, cx, cy, Math.max(r.width, r.height) / 2)
  else {
    // CSS angles: 0deg points up, 90deg right.
    const a = ((spec.angle - 90) * Math.PI) / 180
    const half = (Math.abs(r.width * Math.cos(a)) + Math.abs(r.height * Math.sin(a))) / 2
    grad = g.createLinearGradient(cx - Math.cos(a) * half, cy - Math.sin(a) * half, cx + Math.cos(a) * half, cy + Math.sin(a) * half)
  }
  for (const s of spec.stops) grad.addColorStop(Math.min(1, Math.max(0, s.offset)), cssColor(s.color))
  return grad
}

const ease = easing('easeOutCubic')

/**
 * The animation presets at time `t` of `duration`: fadeIn and slideIn move the whole text; typewriter
 * reveals characters (or words) in turn; ascend raises words in turn; shift and movingLetters bring
 * characters in one after another. `size` scales the travel distances.
 */
export function preset(
  name: string,
  t: number,
  duration: number,
  size: number,
  opts: { style?: 'character' | 'word'; direction?: 'left' | 'right' | 'up' | 'down' } = {},
): Animation | undefined {
  if (t >= duration) return undefined
  const p = Math.max(0, t / duration)
  const dir = { left: [-1, 0], right: [1, 0], up: [0, -1], down: [0, 1] }[opts.direction ?? 'up']!
  // Units arrive one after another; each takes 30 % of the duration.
  const staggered = (i: number, n: number) => ease(Math.min(1, Math.max(0, (p - (n > 1 ? (i / (n - 1)) * 0.7 : 0)) / 0.3)))
  const from = (k: number, distance: number) => ({ dx: -dir[0]! * distance * (1 - k), dy: -dir[1]! * distance * (1 - k) })
  switch (name) {
    case 'fadeIn':
      return { unit: 'all', state: () => ({ alpha: ease(p), dx: 0, dy: 0 }) }
    case 'slideIn':
      return { unit: 'all', state: () => ({ alpha: ease(p), ...from(ease(p), size * 0.8) }) }
    case 'typewriter':
      return { unit: opts.style ?? 'character', state: (i, n) => ({ alpha: i < Math.floor(p * n + 1e-9) ? 1 : 0, dx: 0, dy: 0 }) }
    case 'ascend':
      return { unit: 'word', state: (i, n) => ({ alpha: staggered(i, n), ...from(staggered(i, n), size * 0.6) }) }
    case 'shift':
      return { unit: opts.style ?? 'character', state: (i, n) => ({ alpha: staggered(i, n), ...from(staggered(i, n), size * 0.5) }) }
    case 'movingLetters':
      return { unit: 'character', state: (i, n) => ({ alpha: staggered(i, n), ...from(staggered(i, n), size * (i % 2 ? 1.2 : -1.2)) }) }
    default:
      return undefined
  }
}
