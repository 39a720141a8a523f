import { createRequire } from 'node:module'
import type { FontFace } from '../../../core/index.js'

const require = createRequire(import.meta.url)

/** Weights the @expo-google-fonts packages name their TTF files by. */
const WEIGHTS: Record<number, string> = {
  100: '100Thin',
  200: '200ExtraLight',
  300: '300Light',
  400: '400Regular',
  500: '500Medium',
  600: '600SemiBold',
  700: '700Bold',
  800: '800ExtraBold',
  900: '900Black',
}

/** A family shipped through an npm font package (no download at run time). */
function expo(pkg: string, family: string, file: string, weights: number[]): FontFace[] {
  return weights.map((w) => ({
    family,
    weight: w,
    style: 'normal' as const,
    path: require.resolve(`@expo-google-fonts/${pkg}/${WEIGHTS[w]}/${file}_${WEIGHTS[w]}.ttf`),
  }))
}

/** A family from a @fontsource package (WOFF; the canvas and satori both read it). */
function fontsource(pkg: string, family: string, weights: number[]): FontFace[] {
  return weights.map((w) => ({ family, weight: w, style: 'normal' as const, path: require.resolve(`@fontsource/${pkg}/files/${pkg}-latin-${w}-normal.woff`) }))
}

/** Every built-in face: the families real Shotstack edits use, and those the title styles need. */
export const builtinFonts: FontFace[] = [
  ...expo('open-sans', 'Open Sans', 'OpenSans', [300, 400, 500, 600, 700, 800]),
  ...expo('montserrat', 'Montserrat', 'Montserrat', [100, 200, 300, 400, 500, 600, 700, 800, 900]),
  ...expo('roboto', 'Roboto', 'Roboto', [100, 300, 400, 500, 700, 900]),
  ...expo('permanent-marker', 'Permanent Marker', 'PermanentMarker', [400]),
  ...expo('anton', 'Anton', 'Anton', [400]),
  ...expo('playfair-display', 'Playfair Display', 'PlayfairDisplay', [400, 700, 900]),
  ...expo('caveat', 'Caveat', 'Caveat', [400, 700]),
  ...expo('raleway', 'Raleway', 'Raleway', [100, 200, 300, 400, 700]),
  ...expo('orbitron', 'Orbitron', 'Orbitron', [400, 700, 900]),
  ...expo('work-sans', 'Work Sans', 'WorkSans', [300, 400, 500, 600, 700, 800]),
  ...expo('dm-sans', 'DM Sans', 'DMSans', [300, 400, 500, 600, 700, 900]),
  ...expo('noto-sans', 'Noto Sans', 'NotoSans', [300, 400, 500, 700, 900]),
  ...fontsource('clear-sans', 'Clear Sans', [100, 300, 400, 500, 700]),
  ...fontsource('didact-gothic', 'Didact Gothic', [400]),
  ...fontsource('arapey', 'Arapey', [400]),
  ...fontsource('sue-ellen-francisco', 'Sue Ellen Francisco', [400]),
]

/** The family unknown names fall back to. */
export const DEFAULT_FONT = 'Open Sans'
