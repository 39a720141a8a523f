import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { SHOTSTACK_FILTERS } from '../../kit.js'
import { mean, near, pixel } from '../helpers/frames.js'
import { drawnPng, solidPng, tempDir } from '../helpers/media.js'
import { edit, renderAndDecode } from '../helpers/render.js'

const dir = tempDir()
const SRC = [192, 128, 64] as const // #c08040
let tan = ''

/** The filters' definitions, written out here in plain maths (0..1 colour; opaque pixels). */
const Y = (c: number[]) => 0.2126 * c[0]! + 0.7152 * c[1]! + 0.0722 * c[2]!
const contrastBy = (c: number[], k: number) => c.map((v) => (v - 0.5) * k + 0.5)
const saturate = (c: number[], k: number) => c.map((v) => Y(c) + (v - Y(c)) * k)
const EXPECTED: Record<string, (c: number[]) => number[]> = {
  none: (c) => c,
  greyscale: (c) => [Y(c), Y(c), Y(c)],
  negative: (c) => c.map((v) => 1 - v),
  darken: (c) => c.map((v) => v * 0.6),
  lighten: (c) => c.map((v) => v + (1 - v) * 0.35),
  contrast: (c) => contrastBy(c, 1.5),
  boost: (c) => saturate(contrastBy(c, 1.2), 1.6),
  muted: (c) => contrastBy(saturate(c, 0.45), 0.85),
}

const filters = suite('filters')
filters.before(async () => {
  tan = await solidPng(join(dir, 'tan.png'), 320, 180, '#c08040')
})
filters('each colour filter turns #c08040 into what its definition computes', async () => {
  const names = SHOTSTACK_FILTERS.filter((f) => f !== 'blur')
  const clips = names.map((filter, i) => ({ asset: { type: 'image', src: tan }, start: i, length: 1, filter }))
  const { frames } = await renderAndDecode(edit(clips, { fps: 12 }))
  names.forEach((name, i) => {
    const want = EXPECTED[name]!(SRC.map((v) => v / 255)).map((v) => Math.round(Math.min(1, Math.max(0, v)) * 255))
    const got = mean(frames, i * 12 + 6, 140, 70, 180, 110)
    assert.ok(near(got, want, 6), `${name}: got ${got.map(Math.round)}, expected ${want}`)
  })
})
filters('greyscale gives R = G = B on every pixel of a colourful picture; negative inverts each quadrant', async () => {
  const quads = await drawnPng(join(dir, 'quads.png'), 320, 180, (g) => {
    const colours = ['#ff0000', '#00ff00', '#0000ff', '#ffcc00']
    colours.forEach((c, k) => {
      g.fillStyle = c
      g.fillRect((k % 2) * 160, Math.floor(k / 2) * 90, 160, 90)
    })
  })
  const clips = [
    { asset: { type: 'image', src: quads }, start: 0, length: 1, filter: 'greyscale' },
    { asset: { type: 'image', src: quads }, start: 1, length: 1, filter: 'negative' },
  ]
  const { frames } = await renderAndDecode(edit(clips, { fps: 12 }))
  for (let y = 0; y < 180; y += 7)
    for (let x = 0; x < 320; x += 7) {
      const [r, g, b] = pixel(frames, 6, x, y)
      assert.ok(Math.abs(r - g) <= 3 && Math.abs(g - b) <= 3, `greyscale (${x}, ${y}) = ${r},${g},${b}`)
    }
  const inverted = [
    [0, 255, 255],
    [255, 0, 255],
    [255, 255, 0],
    [0, 51, 255],
  ]
  inverted.forEach((want, k) => {
    const x = (k % 2) * 160 + 80,
      y = Math.floor(k / 2) * 90 + 45
    const got = mean(frames, 18, x - 10, y - 10, x + 10, y + 10)
    assert.ok(near(got, want, 8), `negative quadrant ${k}: ${got.map(Math.round)} vs ${want}`)
  })
})
filters('blur softens a hard edge into a ramp and leaves flat areas alone', async () => {
  const halves = await drawnPng(join(dir, 'halves.png'), 320, 180, (g) => {
    g.fillStyle = '#ffffff'
    g.fillRect(0, 0, 160, 180)
    g.fillStyle = '#000000'
    g.fillRect(160, 0, 160, 180)
  })
  const clips = [
    { asset: { type: 'image', src: halves }, start: 0, length: 1 },
    { asset: { type: 'image', src: halves }, start: 1, length: 1, filter: 'blur' },
  ]
  const { frames } = await renderAndDecode(edit(clips, { fps: 12 }))
  const grey = (i: number, x: number) => pixel(frames, i, x, 90)[1]
  assert.ok(grey(6, 157) > 240 && grey(6, 162) < 15, 'sharp without the filter')
  assert.ok(grey(18, 157) < 235 && grey(18, 162) > 20, `blurred across the edge: ${grey(18, 157)}, ${grey(18, 162)}`)
  assert.ok(grey(18, 155) > grey(18, 158) && grey(18, 158) > grey(18, 161) && grey(18, 161) > grey(18, 164), 'a monotonic ramp')
  assert.ok(grey(18, 60) > 245 && grey(18, 260) < 10, 'flat areas unchanged')
})
filters.run()
