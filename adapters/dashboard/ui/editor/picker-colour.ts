import { colourBytes } from '../../../../core/plan/color.js'

const hex2 = (n: number) =>
  Math.max(0, Math.min(255, Math.round(n)))
    .toString(16)
    .padStart(2, '0')

/**
 * A colour as the `#rrggbb` a colour picker takes — read as the renderer reads it (core/plan/color.ts: Shotstack's
 * alpha-first `#aarrggbb`, CSS names, rgb()) — or undefined when it is not set, `transparent` (no colour to show)
 * or not a colour yet (a placeholder): the swatch then says so rather than showing black, which the clip is not.
 */
export function pickerColour(value: unknown): string | undefined {
  const s = typeof value === 'string' ? value.trim() : ''
  const bytes = s.toLowerCase() === 'transparent' ? undefined : colourBytes(s)
  return bytes && `#${bytes.slice(0, 3).map(hex2).join('')}`
}
