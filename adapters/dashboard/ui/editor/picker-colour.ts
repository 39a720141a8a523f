import { CSS_COLOURS } from '../../../../core/schema/css-colours.js'

const hex2 = (n: number) =>
  Math.max(0, Math.min(255, Math.round(n)))
    .toString(16)
    .padStart(2, '0')

/**
 * A colour as the `#rrggbb` a colour picker takes — Shotstack's alpha-first `#aarrggbb` and `#argb` read as the
 * renderer reads them, CSS names and rgb() as drawn — or undefined when it is not set or not a colour yet (a
 * placeholder): the swatch then says so rather than showing black, which the clip would not be.
 */
export function pickerColour(value: unknown): string | undefined {
  const s = typeof value === 'string' ? value.trim().toLowerCase() : ''
  const hex = /^#([0-9a-f]+)$/.exec(s)?.[1]
  if (hex?.length === 3 || hex?.length === 4) return `#${[...hex.slice(-3)].map((c) => c + c).join('')}`
  if (hex?.length === 6 || hex?.length === 8) return `#${hex.slice(-6)}`
  const named = CSS_COLOURS[s]
  if (named !== undefined) return `#${named.toString(16).padStart(6, '0')}`
  const rgb = /^rgba?\(([^)]*)\)$/
    .exec(s)?.[1]
    ?.split(/[\s,/]+/)
    .filter(Boolean)
    .map(Number)
  return rgb && rgb.length >= 3 ? `#${rgb.slice(0, 3).map(hex2).join('')}` : undefined
}
