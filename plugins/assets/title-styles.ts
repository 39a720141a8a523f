import type { TitleAsset } from '../../core/index.js'

/** How one title `style` looks. Shotstack publishes no definitions; these follow the names' intent. */
export interface TitleStyle {
  family: string
  weight: number
  uppercase?: boolean
  /** Extra space between letters, in em. */
  letterSpacing?: number
  lineHeight: number
  /** Multiplies the `size` preset (display faces run small or large). */
  scale: number
  /** A soft drop shadow, for legibility over footage. */
  shadow?: boolean
}

/** The 10 title styles, each mapped to a real font shipped through npm. */
export const TITLE_STYLES: Record<TitleAsset['style'], TitleStyle> = {
  minimal: { family: 'Montserrat', weight: 600, lineHeight: 1.2, scale: 1 },
  blockbuster: { family: 'Anton', weight: 400, uppercase: true, letterSpacing: 0.03, lineHeight: 1.1, scale: 1.2, shadow: true },
  vogue: { family: 'Playfair Display', weight: 700, uppercase: true, letterSpacing: 0.08, lineHeight: 1.2, scale: 1 },
  sketchy: { family: 'Caveat', weight: 700, lineHeight: 1.1, scale: 1.25 },
  skinny: { family: 'Raleway', weight: 200, uppercase: true, letterSpacing: 0.12, lineHeight: 1.2, scale: 1 },
  chunk: { family: 'Montserrat', weight: 900, uppercase: true, lineHeight: 1.1, scale: 1.05 },
  chunkLight: { family: 'Montserrat', weight: 800, lineHeight: 1.1, scale: 1.05 },
  marker: { family: 'Permanent Marker', weight: 400, lineHeight: 1.2, scale: 1.1 },
  future: { family: 'Orbitron', weight: 700, uppercase: true, letterSpacing: 0.05, lineHeight: 1.2, scale: 0.95 },
  subtitle: { family: 'Open Sans', weight: 600, lineHeight: 1.3, scale: 1, shadow: true },
}

/** Text height per `size`, as a fraction of the frame height (xx-small … xx-large). */
export const TITLE_SIZES: Record<TitleAsset['size'], number> = {
  'xx-small': 0.025,
  'x-small': 0.035,
  small: 0.045,
  medium: 0.06,
  large: 0.08,
  'x-large': 0.105,
  'xx-large': 0.14,
}
