import { copyFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { type Frames, pixel } from '../helpers/frames.js'
import { tempDir } from '../helpers/media.js'
import { edit, renderAndDecode } from '../helpers/render.js'

const dir = tempDir()
const require = createRequire(import.meta.url)

/** Bounding box of "text" pixels (bright on the dark background) in frame i. */
function inkBox(f: Frames, i: number): { x0: number; y0: number; x1: number; y1: number; count: number } {
  let x0 = 1e9,
    y0 = 1e9,
    x1 = -1,
    y1 = -1,
    count = 0
  for (let y = 0; y < f.height; y++)
    for (let x = 0; x < f.width; x++) {
      const [r, g, b] = pixel(f, i, x, y)
      if (r > 150 && g > 150 && b > 150) (x0 = Math.min(x0, x)), (y0 = Math.min(y0, y)), (x1 = Math.max(x1, x)), (y1 = Math.max(y1, y)), count++
    }
  return { x0, y0, x1, y1, count }
}
const box = (html: string, extra: object = {}, clip: object = {}) => ({
  asset: { type: 'html', html, css: 'p { color: #ffffff; font-size: 20px; margin: 0 }', width: 200, height: 100, ...extra },
  length: 0.04,
  ...clip,
})
const dark = { background: '#000000' }

const layout = suite('html layout')
layout('text wraps inside the box and sits at the asked position within it', async () => {
  // The 200x100 box is laid out unscaled, centred in the 320x180 frame: x 60..260, y 40..140.
  const positions = ['topLeft', 'center', 'bottomRight']
  const clips = positions.map((position, i) => ({ ...box('<p>Hello there</p>', { position }), start: i * 0.04 }))
  const { frames } = await renderAndDecode(edit(clips, {}, dark))
  const [tl, c, br] = [inkBox(frames, 0), inkBox(frames, 1), inkBox(frames, 2)]
  for (const b of [tl, c, br]) assert.ok(b.count > 30 && b.x0 >= 58 && b.x1 <= 262 && b.y0 >= 38 && b.y1 <= 142, `ink inside the box: ${JSON.stringify(b)}`)
  assert.ok(tl.x0 < 70 && tl.y0 < 50, `topLeft ${JSON.stringify(tl)}`)
  assert.ok(Math.abs((c.x0 + c.x1) / 2 - 160) < 6 && Math.abs((c.y0 + c.y1) / 2 - 90) < 6, `center ${JSON.stringify(c)}`)
  assert.ok(br.x1 > 250 && br.y1 > 130, `bottomRight ${JSON.stringify(br)}`)
})
layout('long text wraps to several lines within the box width', async () => {
  const { frames } = await renderAndDecode(edit([{ ...box('<p>one two three four five six seven eight nine ten</p>'), start: 0 }], {}, dark))
  const b = inkBox(frames, 0)
  assert.ok(b.x1 - b.x0 <= 200 && b.y1 - b.y0 > 40, `wrapped: ${JSON.stringify(b)}`)
})
layout("background fills the box; CSS colours in Shotstack's alpha-first #AARRGGBB", async () => {
  const clips = [
    { ...box('<p>x</p>', { background: '#00ff00' }), start: 0 },
    { ...box('<p>x</p>', { css: 'p { background-color: #80ff0000; width: 200px; height: 100px; margin: 0 }' }), start: 0.04 },
  ]
  const { frames } = await renderAndDecode(edit(clips, {}, { background: '#0000ff' }))
  const [r0, g0] = pixel(frames, 0, 70, 50)
  assert.ok(g0 > 200 && r0 < 60, `green box ${pixel(frames, 0, 70, 50)}`)
  const [r1, , b1] = pixel(frames, 1, 70, 50)
  assert.ok(Math.abs(r1 - 128) < 20 && Math.abs(b1 - 127) < 20, `50 % red over blue: ${pixel(frames, 1, 70, 50)}`)
})
layout.run()

const fonts = suite('html fonts')
fonts('a font from timeline.fonts changes the glyphs (by embedded family name and by file name)', async () => {
  const file = join(dir, 'MyScript.ttf')
  copyFileSync(require.resolve('@expo-google-fonts/pacifico/400Regular/Pacifico_400Regular.ttf'), file)
  const html = (family: string) => box('<p>Handwriting 123</p>', { css: `p { color: #ffffff; font-size: 24px; margin: 0; font-family: ${family} }` })
  const clips = [
    { ...html("'Open Sans'"), start: 0 },
    { ...html("'Pacifico'"), start: 0.04 },
    { ...html('MyScript'), start: 0.08 },
  ]
  const e = edit(clips, {}, dark) as any
  e.timeline.fonts = [{ src: file }]
  const { frames, result } = await renderAndDecode(e)
  assert.equal(
    result.warnings.filter((w) => /font/.test(w.message)),
    [],
  )
  let diff = 0,
    same = 0
  for (let y = 40; y < 140; y++)
    for (let x = 60; x < 260; x++) {
      const a = pixel(frames, 0, x, y)[0]!,
        b = pixel(frames, 1, x, y)[0]!,
        c = pixel(frames, 2, x, y)[0]!
      if (Math.abs(a - b) > 100) diff++
      if (Math.abs(b - c) > 100) same++
    }
  assert.ok(diff > 300, `Pacifico differs from Open Sans in ${diff} pixels`)
  assert.ok(same < 30, `the file-name alias draws the same font (${same} pixels differ)`)
})
fonts('built-in families used by real edits render without warnings; unknown ones fall back with one', async () => {
  const families = [
    'Montserrat ExtraBold',
    'Roboto',
    'Work Sans',
    'Permanent Marker',
    'Clear Sans',
    'Didact Gothic',
    'Arapey',
    'Sue Ellen Francisco',
    'Open Sans',
    'DM Sans 9pt',
    'Noto Sans',
  ]
  const clips = families.map((f, i) => ({
    ...box('<p>Aa</p>', { css: `p { color: #fff; font-size: 30px; margin: 0; font-family: '${f}' }` }),
    start: i * 0.04,
  }))
  clips.push({ ...box('<p>Aa</p>', { css: "p { color: #fff; font-size: 30px; font-family: 'No Such Font' }" }), start: families.length * 0.04 })
  const { result, frames } = await renderAndDecode(edit(clips, {}, dark))
  const warnings = result.warnings.map((w) => w.message)
  assert.equal(
    warnings.filter((m) => /font/.test(m)),
    [`font "No Such Font" is not available; using "Open Sans"`],
  )
  for (let i = 0; i <= families.length; i++) assert.ok(inkBox(frames, i).count > 20, `frame ${i} drew text`)
})
fonts.run()

const safety = suite('html safety')
safety('scripts never run and are not drawn; images are dropped; both warn', async () => {
  const html = '<p>Safe</p><script>document.body.innerHTML = "<p>INJECTED TEXT THAT IS LONG</p>"</script><img src="http://127.0.0.1:1/x.png">'
  const { frames, result } = await renderAndDecode(edit([{ ...box(html), start: 0 }], {}, dark))
  const b = inkBox(frames, 0)
  assert.ok(b.count > 10 && b.x1 - b.x0 < 80, `only "Safe" is drawn: ${JSON.stringify(b)}`)
  const messages = result.warnings.map((w) => w.message).join(' | ')
  assert.match(messages, /scripts never run/)
  assert.match(messages, /images inside html assets are not rendered/)
})
safety('inline svg is drawn (as an image of its own markup, never fetching anything), sized by its attributes', async () => {
  const html = '<div><svg width="80" height="40" viewBox="0 0 8 4"><rect width="8" height="4" fill="#ffffff"/></svg></div>'
  const { frames, result } = await renderAndDecode(edit([{ ...box(html, { position: 'topLeft' }), start: 0 }], {}, dark))
  const b = inkBox(frames, 0)
  assert.equal([b.x1 - b.x0 + 1, b.y1 - b.y0 + 1], [80, 40], JSON.stringify(b))
  assert.equal([b.x0, b.y0], [60, 40], "at the box's top-left")
  assert.is(result.warnings.length, 0, JSON.stringify(result.warnings))
})
safety.run()
