import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import harfbuzz from 'harfbuzzjs'

const require = createRequire(import.meta.url)

/** A font file from the npm font packages, by package and file stem: ('open-sans', 'OpenSans_700Bold'). */
export const fontFile = (pkg: string, stem: string) => require.resolve(`@expo-google-fonts/${pkg}/${stem.split('_')[1]}/${stem}.ttf`)

/** One shaped line's ink, in font units above (`ascent`) and below (`descent`) its baseline. */
export interface LineInk {
  ascent: number
  descent: number
}

/**
 * The ink of each line of `text` as HarfBuzz reports it: the line is shaped, and the glyphs' extents (from the
 * font's own outlines' bounding boxes) give the highest point above the baseline and the lowest below it.
 * This is the reference the drawn pixels are held to, computed without reelforge's own code. (Not
 * `font.hExtents()`: in harfbuzzjs 0.10.0 it writes a 48-byte struct into 12 bytes of stack and breaks the font.)
 */
export async function lineInk(path: string, text: string): Promise<{ upem: number; lines: LineInk[] }> {
  const hb = await harfbuzz
  const blob = hb.createBlob(readFileSync(path))
  const face = hb.createFace(blob, 0)
  const font = hb.createFont(face)
  const lines = text.split('\n').map((line) => {
    const buffer = hb.createBuffer()
    buffer.addText(line)
    buffer.guessSegmentProperties()
    hb.shape(font, buffer)
    let ascent = 0,
      descent = 0
    for (const { g } of buffer.json()) {
      const e = font.glyphExtents(g)
      if (!e || e.height === 0) continue
      ascent = Math.max(ascent, e.yBearing)
      descent = Math.max(descent, -(e.yBearing + e.height))
    }
    buffer.destroy()
    return { ascent, descent }
  })
  const upem = face.upem
  font.destroy()
  face.destroy()
  blob.destroy()
  return { upem, lines }
}
