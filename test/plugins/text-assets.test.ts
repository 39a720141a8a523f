import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { isGreen, isRed, locate, mean, near, pixel } from '../helpers/frames.js'
import { edit, renderAndDecode } from '../helpers/render.js'

const white = ([r, g, b]: [number, number, number]) => r > 160 && g > 160 && b > 160
const drawn = ([r, g, b]: [number, number, number]) => r > 100 || g > 100 || b < 150 // anything but the blue background

const text = suite('text and rich-text')
text('text: white 40 px text centred in the frame; alignment left puts it against the left edge', async () => {
  const clips = [
    { asset: { type: 'text', text: 'Hello', font: { color: '#ffffff', size: 40 } }, start: 0, length: 1 },
    { asset: { type: 'text', text: 'Hello', font: { color: '#ffffff', size: 40 }, alignment: { horizontal: 'left', vertical: 'top' } }, start: 1, length: 1 },
  ]
  const { frames } = await renderAndDecode(edit(clips, { fps: 12 }))
  const centred = locate(frames, 6, white)
  assert.ok(centred.count > 200, 'text drawn')
  assert.ok(
    Math.abs((centred.minX + centred.maxX) / 2 - 160) < 4 && Math.abs((centred.minY + centred.maxY) / 2 - 90) < 6,
    `centred: ${centred.minX}..${centred.maxX}, ${centred.minY}..${centred.maxY}`,
  )
  assert.ok(centred.maxY - centred.minY > 20 && centred.maxY - centred.minY < 45, 'about 40 px tall (cap height to descender)')
  const left = locate(frames, 18, white)
  assert.ok(left.minX < 8 && left.minY < 16, `top-left: ${left.minX}, ${left.minY}`)
})
text("text: the background fills the asset's width×height box, also behind empty text; stroke draws an outline", async () => {
  // Shotstack fills the whole box (real edits draw panels as `text: ""` with a background and borderRadius).
  const clips = [
    {
      asset: { type: 'text', text: 'Box', width: 200, height: 80, font: { color: '#ffffff', size: 30 }, background: { color: '#ff0000', padding: 10 } },
      start: 0,
      length: 1,
    },
    { asset: { type: 'text', text: 'Line', font: { color: '#ffffff', size: 60 }, stroke: { color: '#00ff00', width: 4 } }, start: 1, length: 1 },
    { asset: { type: 'text', text: '', width: 100, height: 40, background: { color: '#ff0000' } }, start: 2, length: 1 },
  ]
  const { frames } = await renderAndDecode(edit(clips, { fps: 12 }))
  const box = locate(frames, 6, isRed),
    txt = locate(frames, 6, white)
  assert.ok(txt.count > 100, 'text drawn over its background')
  assert.ok(
    Math.abs(box.maxX - box.minX + 1 - 200) <= 3 && Math.abs(box.maxY - box.minY + 1 - 80) <= 3,
    `box 200×80: ${box.minX}..${box.maxX}, ${box.minY}..${box.maxY}`,
  )
  assert.ok(Math.abs((box.minX + box.maxX) / 2 - 160) < 2 && Math.abs((box.minY + box.maxY) / 2 - 90) < 2, 'box centred in the frame')
  assert.ok(locate(frames, 18, isGreen).count > 150, 'stroke drawn in green')
  const panel = locate(frames, 30, isRed)
  assert.ok(
    Math.abs(panel.maxX - panel.minX + 1 - 100) <= 3 && Math.abs(panel.maxY - panel.minY + 1 - 40) <= 3,
    `empty text: a 100×40 panel, got ${panel.count} px`,
  )
})
text('rich-text: a left-to-right gradient runs red → blue across the text; letterSpacing widens it', async () => {
  const base = { type: 'rich-text', text: 'WWWWWW', font: { size: 48, color: '#ffffff', weight: 700 } }
  const clips = [
    {
      asset: {
        ...base,
        style: {
          gradient: {
            type: 'linear',
            angle: 90,
            stops: [
              { offset: 0, color: '#ff0000' },
              { offset: 1, color: '#00ff00' },
            ],
          },
        },
      },
      start: 0,
      length: 1,
    },
    { asset: base, start: 1, length: 1 },
    { asset: { ...base, style: { letterSpacing: 10 } }, start: 2, length: 1 },
  ]
  const { frames } = await renderAndDecode(edit(clips, { fps: 12, size: { width: 640, height: 180 } }))
  const reds = locate(frames, 6, ([r, g, b]) => r > 120 && r > g + 40 && b < 120)
  const greens = locate(frames, 6, ([r, g, b]) => g > 120 && g > r + 40 && b < 120)
  assert.ok(reds.count > 50 && greens.count > 50, 'both ends of the gradient appear')
  assert.ok(reds.x < greens.x - 40, `red on the left (${reds.x}), green on the right (${greens.x})`)
  const plain = locate(frames, 18, white),
    spaced = locate(frames, 30, white)
  assert.ok(spaced.maxX - spaced.minX > plain.maxX - plain.minX + 40, `letterSpacing 10 adds ~50 px: ${plain.maxX - plain.minX} → ${spaced.maxX - spaced.minX}`)
})
text('rich-text fadeIn: invisible at the start, half way part-visible, then solid; typewriter reveals characters in order', async () => {
  const clips = [
    { asset: { type: 'rich-text', text: 'FADE', font: { size: 60, color: '#ffffff' }, animation: { preset: 'fadeIn', duration: 1 } }, start: 0, length: 2 },
    {
      asset: { type: 'rich-text', text: 'ABCDEFGH', font: { size: 40, color: '#ffffff' }, animation: { preset: 'typewriter', duration: 1 } },
      start: 2,
      length: 2,
    },
  ]
  const { frames } = await renderAndDecode(edit(clips, { fps: 25 }))
  const peak = (i: number) => Math.max(...[...Array(40).keys()].map((k) => pixel(frames, i, 100 + k * 3, 90)[1]))
  assert.ok(peak(0) < 20, `fadeIn starts invisible (${peak(0)})`)
  // Frame 5: t = 0.2 of 1 s on easeOutCubic, alpha = 1 − 0.8³ = 0.488 (white over blue: G = 255·alpha).
  assert.ok(Math.abs(peak(5) - 255 * 0.488) < 25, `fades up (${peak(5)})`)
  assert.ok(peak(40) > 230, `solid afterwards (${peak(40)})`)
  const width = (i: number) => {
    const l = locate(frames, i, white)
    return l.count ? l.maxX - l.minX : 0
  }
  assert.ok(width(50 + 6) > 0 && width(50 + 6) < width(50 + 15), 'more characters later')
  assert.ok(width(50 + 15) < width(50 + 40), 'all of them at the end')
})
text('rich-text font.style italic leans the glyphs right: the top of an "I" sits right of its foot', async () => {
  const base = { type: 'rich-text', text: 'I', font: { size: 120, color: '#ffffff', weight: 700 } }
  const clips = [
    { asset: base, start: 0, length: 1 },
    { asset: { ...base, font: { ...base.font, style: 'italic' } }, start: 1, length: 1 },
  ]
  const { frames } = await renderAndDecode(edit(clips, { fps: 12 }))
  // Mean x of the white pixels in the top and bottom fifths of the glyph.
  const lean = (i: number) => {
    const g = locate(frames, i, white)
    const band = (y0: number, y1: number) => {
      let sum = 0,
        n = 0
      for (let y = y0; y <= y1; y++) for (let x = g.minX; x <= g.maxX; x++) if (white(pixel(frames, i, x, y))) (sum += x), n++
      return sum / n
    }
    const h = g.maxY - g.minY
    return { shift: band(g.minY, g.minY + h / 5) - band(g.maxY - h / 5, g.maxY), h }
  }
  const upright = lean(6),
    italic = lean(18)
  assert.ok(Math.abs(upright.shift) < 2, `upright: top and foot aligned (${upright.shift.toFixed(1)} px)`)
  // A ~12° slant over 4/5 of the glyph height moves the top right by about 0.8·h·tan 12° (≈ 0.17·h).
  assert.ok(italic.shift > 0.1 * italic.h && italic.shift < 0.3 * italic.h, `italic leans right by ${italic.shift.toFixed(1)} px over ${italic.h} px`)
})
text.run()

const vector = suite('svg and shape')
vector('svg: markup rasterised at its own size, sharp edges, centred', async () => {
  const src =
    '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="60" viewBox="0 0 100 60"><rect x="0" y="0" width="50" height="60" fill="#ff0000"/><circle cx="75" cy="30" r="20" fill="#00ff00"/></svg>'
  const { frames } = await renderAndDecode(edit([{ asset: { type: 'svg', src }, start: 0, length: 1, fit: 'none' }], { fps: 12 }))
  const r = locate(frames, 6, isRed),
    g = locate(frames, 6, isGreen)
  assert.ok(
    Math.abs(r.minX - 110) <= 1 && Math.abs(r.maxX - 159) <= 2 && Math.abs(r.minY - 60) <= 1 && Math.abs(r.maxY - 119) <= 1,
    `rect at ${r.minX}..${r.maxX} × ${r.minY}..${r.maxY}`,
  )
  assert.ok(Math.abs(g.x - 185) < 1.5 && Math.abs(g.y - 90) < 1.5, `circle centre ${g.x}, ${g.y}`)
  assert.ok(Math.abs(g.count - Math.PI * 400) < 60, `circle area ${g.count}`)
})
vector('invalid SVG is a clear error naming the clip', async () => {
  try {
    await renderAndDecode(edit([{ asset: { type: 'svg', src: '<svg><oops' }, start: 0, length: 1 }], { fps: 12 }))
    assert.unreachable()
  } catch (e) {
    assert.match((e as Error).message, /timeline\.tracks\[0\]\.clips\[0\]\.asset\.src: not valid SVG/)
  }
})
vector('shape: a rounded rectangle, a circle of the given radius, and a line, with fill and stroke', async () => {
  const clips = [
    { asset: { type: 'shape', shape: 'rectangle', rectangle: { width: 120, height: 60, cornerRadius: 20 }, fill: { color: '#ff0000' } }, start: 0, length: 1 },
    {
      asset: { type: 'shape', shape: 'circle', circle: { radius: 40 }, fill: { color: '#00ff00' }, stroke: { color: '#ff0000', width: 6 } },
      start: 1,
      length: 1,
    },
    { asset: { type: 'shape', shape: 'line', line: { length: 200, thickness: 10 }, fill: { color: '#ffffff' } }, start: 2, length: 1 },
  ]
  const { frames } = await renderAndDecode(edit(clips, { fps: 12 }))
  const rect = locate(frames, 6, isRed)
  assert.ok(Math.abs(rect.maxX - rect.minX + 1 - 120) <= 2 && Math.abs(rect.maxY - rect.minY + 1 - 60) <= 2, 'rectangle 120×60')
  assert.ok(near(pixel(frames, 6, 102, 62), [0, 0, 255], 30), 'corner rounded off')
  const circle = locate(frames, 18, isGreen)
  assert.ok(Math.abs(circle.count - Math.PI * 37 * 37) < 250, `circle fill area ${circle.count}`)
  assert.ok(near(mean(frames, 18, 158, 49, 162, 51), [255, 0, 0], 40), 'red stroke on the rim')
  const line = locate(frames, 30, white)
  assert.ok(
    Math.abs(line.maxX - line.minX + 1 - 200) <= 2 && Math.abs(line.maxY - line.minY + 1 - 10) <= 2,
    `line 200×10: ${line.maxX - line.minX + 1}×${line.maxY - line.minY + 1}`,
  )
  assert.ok(locate(frames, 30, drawn).count < 204 * 14, `nothing else drawn beyond chroma-blurred edges (${locate(frames, 30, drawn).count})`)
})
vector.run()
