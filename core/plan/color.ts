import { CSS_COLOURS } from '../schema/css-colours.js'

/**
 * Parses a colour into straight RGBA bytes. Hex forms: `#rgb`, `#rrggbb`, and Shotstack's alpha-first
 * `#aarrggbb` (`#80ffffff` = 50 % white); also CSS names, `transparent`, `rgb()` and `rgba()`.
 * Unparseable input gives black, which schema validation has already ruled out.
 */
export function parseColorBytes(input: string): [number, number, number, number] {
  return colourBytes(input) ?? [0, 0, 0, 255]
}

/** `parseColorBytes`, or undefined where the input names no colour (the editor's swatch then shows none). */
export function colourBytes(input: string): [number, number, number, number] | undefined {
  const s = input.trim().toLowerCase()
  if (s === 'transparent') return [0, 0, 0, 0]
  const hex = /^#([0-9a-f]+)$/.exec(s)?.[1]
  if (hex) {
    const h = (i: number, n = 2) => parseInt(hex.slice(i, i + n), 16)
    if (hex.length === 3) return [h(0, 1) * 17, h(1, 1) * 17, h(2, 1) * 17, 255]
    if (hex.length === 4) return [h(1, 1) * 17, h(2, 1) * 17, h(3, 1) * 17, h(0, 1) * 17]
    if (hex.length === 6) return [h(0), h(2), h(4), 255]
    if (hex.length === 8) return [h(2), h(4), h(6), h(0)]
  }
  const fn = /^rgba?\(([^)]*)\)$/.exec(s)?.[1]
  if (fn) {
    const parts = fn
      .split(/[\s,/]+/)
      .filter(Boolean)
      .map(Number)
    const a = parts[3] === undefined ? 1 : parts[3]
    return [parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0, Math.round(Math.min(1, Math.max(0, a)) * 255)]
  }
  const named = CSS_COLOURS[s]
  return named === undefined ? undefined : [named >> 16, (named >> 8) & 255, named & 255, 255]
}

/** Premultiplied RGBA in 0..1, as GL clears and blends. */
export function parseColor(input: string): [number, number, number, number] {
  const [r, g, b, a] = parseColorBytes(input)
  const k = a / 255 / 255
  return [r * k, g * k, b * k, a / 255]
}

/** `rgba(r, g, b, a)` for canvas and CSS from any accepted colour form. */
export function cssColor(input: string): string {
  const [r, g, b, a] = parseColorBytes(input)
  return `rgba(${r}, ${g}, ${b}, ${+(a / 255).toFixed(4)})`
}
