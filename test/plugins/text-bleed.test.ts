import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { locate, luma, type Frames } from '../helpers/frames.js'
import { fontFile, lineInk } from '../helpers/glyph-box.js'
import { edit, renderAndDecode } from '../helpers/render.js'

// Shotstack's text engine does not clip rich-text and text at their box: a `bottom` line's descenders hang below
// it, a `top` line's accents rise above it. reelforge draws that ink too, and nothing else moves: the box's
// background still ends on the box's edges. Ink depths are computed from the fonts (HarfBuzz glyph extents).

const FRAME = { width: 640, height: 360 }
const BOX = { width: 600, height: 200 }
const ORIGIN = { x: (FRAME.width - BOX.width) / 2, y: (FRAME.height - BOX.height) / 2 }
const OPEN_SANS = fontFile('open-sans', 'OpenSans_700Bold')
const ANTON = fontFile('anton', 'Anton_400Regular')

/** How far `text`'s glyphs reach below (`descent`) and above (`ascent`) the baseline at `size` px, from the font. */
async function ink(path: string, text: string, size: number) {
  const { upem, lines } = await lineInk(path, text)
  return { ascent: (lines[0]!.ascent * size) / upem, descent: (lines[0]!.descent * size) / upem }
}

const rich = (text: string, vertical: string, font: object = { family: 'Open Sans', weight: 700, size: 64 }) => ({
  type: 'rich-text',
  text,
  width: BOX.width,
  height: BOX.height,
  font: { ...font, color: '#ffffff' },
  background: { color: '#404040' },
  align: { vertical },
})

/** The ink (white text, brighter than mid-grey) of frame `i`: its first row and the row past its last. */
function inkRows(frames: Frames, i: number) {
  const lit = locate(frames, i, (rgb) => luma(rgb) > 127)
  return { top: lit.minY, bottom: lit.maxY + 1, count: lit.count }
}

/**
 * The box's background (#404040, luma 64 on black) in columns `x0..x1` that hold no text: its rows, first and
 * past the last. Half its luma is the edge; x264 leaves a few pixels 10-15 off.
 */
function background(frames: Frames, i: number, x0: number, x1: number) {
  const bg = locate(frames, i, (rgb) => luma(rgb) > 32 && luma(rgb) < 128, { x0, y0: 0, x1, y1: FRAME.height })
  return { top: bg.minY, bottom: bg.maxY + 1, count: bg.count }
}

const bleed = suite('text drawn past its box')

bleed('rich-text and text: descenders at bottom and accents at top cross the box edge; the background stays in it', async () => {
  const clips = [
    rich('Hgy', 'bottom'),
    {
      type: 'text',
      text: 'Hgy',
      ...BOX,
      font: { family: 'Open Sans', weight: 700, size: 64, color: '#ffffff' },
      background: { color: '#404040' },
      alignment: { vertical: 'bottom' },
    },
    rich('ÉÅ', 'top', { family: 'Anton', size: 96 }),
  ].map((asset, i) => ({ asset, start: i * 0.04, length: 0.04 }))
  const { frames } = await renderAndDecode(edit(clips, { size: FRAME }, { background: '#000000' }))
  const hgy = await ink(OPEN_SANS, 'Hgy', 64)
  const boxBottom = ORIGIN.y + BOX.height
  for (const [i, type] of ['rich-text', 'text'].entries()) {
    const got = inkRows(frames, i)
    assert.ok(
      Math.abs(got.bottom - boxBottom - hgy.descent) <= 1.5,
      `${type}: ink ends ${got.bottom - boxBottom} px below the box, the font's descender ${hgy.descent.toFixed(1)} px`,
    )
    // Left of the centred text, the background fills exactly the box's rows, all 100 columns of them.
    assert.equal(background(frames, i, ORIGIN.x, ORIGIN.x + 100), { top: ORIGIN.y, bottom: boxBottom, count: 100 * BOX.height }, `${type} background`)
  }
  const accents = await ink(ANTON, 'ÉÅ', 96)
  const got = inkRows(frames, 2)
  // `top`: the baseline one em below the top edge, so the accents rise `ascent - 1 em` above it.
  assert.ok(accents.ascent - 96 > 5, `Anton's accents reach above one em (${accents.ascent.toFixed(1)} px)`)
  assert.ok(
    Math.abs(ORIGIN.y - got.top - (accents.ascent - 96)) <= 1.5,
    `accents rise ${ORIGIN.y - got.top} px above the box, the font says ${(accents.ascent - 96).toFixed(1)} px`,
  )
  assert.equal(background(frames, 2, ORIGIN.x, ORIGIN.x + 100), { top: ORIGIN.y, bottom: boxBottom, count: 100 * BOX.height }, 'Anton background')
})

bleed('the ink past the box turns, flips and scales with it: turned 180° or flipped, the descenders hang above it; at scale 0.5, half as far', async () => {
  const clips = [
    { asset: rich('Hgy', 'bottom'), start: 0, length: 0.04, transform: { rotate: { angle: 180 } } },
    { asset: rich('Hgy', 'bottom'), start: 0.04, length: 0.04, scale: 0.5 },
    { asset: rich('Hgy', 'bottom'), start: 0.08, length: 0.04, transform: { flip: { vertical: true } } },
  ]
  const { frames } = await renderAndDecode(edit(clips, { size: FRAME }, { background: '#000000' }))
  const { descent } = await ink(OPEN_SANS, 'Hgy', 64)
  const turned = inkRows(frames, 0)
  assert.ok(
    Math.abs(ORIGIN.y - turned.top - descent) <= 1.5,
    `rotated: ink starts ${ORIGIN.y - turned.top} px above the box, descender ${descent.toFixed(1)} px`,
  )
  assert.equal(background(frames, 0, ORIGIN.x, ORIGIN.x + 100), { top: ORIGIN.y, bottom: ORIGIN.y + BOX.height, count: 100 * BOX.height }, 'rotated background')
  // Half size, centred: the box spans 300 × 100 px from (170, 130).
  const half = { x: (FRAME.width - BOX.width / 2) / 2, y: (FRAME.height - BOX.height / 2) / 2 }
  const small = inkRows(frames, 1)
  assert.ok(
    Math.abs(small.bottom - (half.y + BOX.height / 2) - descent / 2) <= 1.5,
    `scale 0.5: ink ends ${small.bottom - half.y - BOX.height / 2} px below the box, half the descender ${(descent / 2).toFixed(1)} px`,
  )
  assert.equal(background(frames, 1, half.x, half.x + 50), { top: half.y, bottom: half.y + BOX.height / 2, count: 50 * (BOX.height / 2) }, 'scaled background')
  const flipped = inkRows(frames, 2)
  assert.ok(
    Math.abs(ORIGIN.y - flipped.top - descent) <= 1.5,
    `flipped: ink starts ${ORIGIN.y - flipped.top} px above the box, descender ${descent.toFixed(1)} px`,
  )
  assert.equal(background(frames, 2, ORIGIN.x, ORIGIN.x + 100), { top: ORIGIN.y, bottom: ORIGIN.y + BOX.height, count: 100 * BOX.height }, 'flipped background')
})

bleed("turned 20°, the box's edges are the very pixels a box with nothing past it draws", async () => {
  // A still each (PNG: exact pixels). With " " nothing reaches past the box, so it has no bleed; with "Hgy" at
  // the bottom it has one, and the box's filtered edges must not pick up its transparent texels.
  const still = (text: string) =>
    renderAndDecode(
      edit(
        [{ asset: rich(text, 'bottom'), start: 0, length: 1, transform: { rotate: { angle: 20 } } }],
        { format: 'png', size: FRAME },
        { background: '#000000' },
      ),
    ).then((r) => r.frames.frame(0))
  const [plain, bled] = [await still(' '), await still('Hgy')]
  // Pixels within 4 px of the text (anything brighter than the background) are the text's; all others must match.
  const near = new Uint8Array(FRAME.width * FRAME.height)
  for (let y = 0; y < FRAME.height; y++)
    for (let x = 0; x < FRAME.width; x++) {
      const o = (y * FRAME.width + x) * 4
      if (luma([bled[o]!, bled[o + 1]!, bled[o + 2]!]) <= 80) continue
      for (let dy = -4; dy <= 4; dy++) for (let dx = -4; dx <= 4; dx++) near[(y + dy) * FRAME.width + x + dx] = 1
    }
  let worst = 0,
    edge = 0
  for (let k = 0; k < near.length; k++) {
    if (near[k]) continue
    const d = Math.abs(plain[k * 4]! - bled[k * 4]!)
    worst = Math.max(worst, d)
    // The box's edge: lit pixels with a black one above or below.
    if (plain[k * 4]! > 0 && (plain[(k - FRAME.width) * 4] === 0 || plain[(k + FRAME.width) * 4] === 0)) edge++
  }
  assert.ok(edge > 100, `the comparison covers the box's edges (${edge} edge pixels)`)
  assert.ok(worst <= 1, `the box drew differently with a bleed: a pixel off by ${worst}`)
})

bleed.run()
