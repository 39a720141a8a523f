import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { TITLE_STYLES } from '../../core/index.js'
import { pixel, type Frames } from '../helpers/frames.js'
import { edit, renderAndDecode } from '../helpers/render.js'

/** Rows containing "text" pixels (bright on the dark background). */
function litRows(f: Frames, i: number): number[] {
  const rows: number[] = []
  for (let y = 0; y < f.height; y++) {
    for (let x = 0; x < f.width; x++) {
      const [r, g, b] = pixel(f, i, x, y)
      if (r > 160 && g > 160 && b > 160) {
        rows.push(y)
        break
      }
    }
  }
  return rows
}

const black = { background: '#000000' }

test("a title paints inside its position's band of the frame, and nowhere else", async () => {
  const clips = ['top', 'center', 'bottom'].map((position, i) => ({
    asset: { type: 'title', text: 'Hello', size: 'large', position },
    start: i * 0.04,
    length: 0.04,
  }))
  const { frames } = await renderAndDecode(edit(clips, {}, black))
  const [top, center, bottom] = [litRows(frames, 0), litRows(frames, 1), litRows(frames, 2)]
  assert.ok(top.length > 5 && Math.max(...top) < 60, `top rows ${top[0]}..${top.at(-1)}`)
  assert.ok(center.length > 5 && Math.min(...center) > 60 && Math.max(...center) < 120, `centre rows ${center[0]}..${center.at(-1)}`)
  assert.ok(bottom.length > 5 && Math.min(...bottom) > 120, `bottom rows ${bottom[0]}..${bottom.at(-1)}`)
})

test('size presets scale the text; color and alpha-first #AARRGGBB apply', async () => {
  const clips = [
    { asset: { type: 'title', text: 'Hi', size: 'xx-small' }, start: 0, length: 0.04 },
    { asset: { type: 'title', text: 'Hi', size: 'xx-large' }, start: 0.04, length: 0.04 },
    { asset: { type: 'title', text: 'HIHIHI', size: 'xx-large', color: '#ff0000' }, start: 0.08, length: 0.04 },
  ]
  const { frames } = await renderAndDecode(edit(clips, {}, black))
  assert.ok(litRows(frames, 1).length > 2 * litRows(frames, 0).length, 'xx-large is taller than xx-small')
  let reddest = 0
  for (let x = 0; x < 320; x++) reddest = Math.max(reddest, pixel(frames, 2, x, 90)[0] - pixel(frames, 2, x, 90)[1])
  assert.ok(reddest > 150, 'red text')
})

test('a background box is drawn behind the text', async () => {
  const { frames } = await renderAndDecode(
    edit([{ asset: { type: 'title', text: 'Boxed', size: 'large', background: '#00ff00' }, start: 0, length: 0.04 }], {}, black),
  )
  // The box around the text: green pixels above, below and beside the letters, none in the frame's corners.
  const isGreen = (x: number, y: number) => pixel(frames, 0, x, y)[1] > 200 && pixel(frames, 0, x, y)[0] < 80
  let green = 0
  for (let y = 0; y < 180; y++) for (let x = 0; x < 320; x++) if (isGreen(x, y)) green++
  assert.ok(green > 500, `green box pixels: ${green}`)
  assert.not.ok(isGreen(2, 2) || isGreen(317, 177), 'the box is not the whole frame')
})

test('all 10 styles render with their own font (different widths for the same text)', async () => {
  const styles = [...TITLE_STYLES]
  const clips = styles.map((style, i) => ({ asset: { type: 'title', text: 'Wave', style, size: 'large' }, start: i * 0.04, length: 0.04 }))
  const { frames } = await renderAndDecode(edit(clips, {}, black))
  const widths = styles.map((_, i) => {
    let min = 999,
      max = -1
    for (let y = 60; y < 120; y++) for (let x = 0; x < 320; x++) if (pixel(frames, i, x, y)[0] > 140) (min = Math.min(min, x)), (max = Math.max(max, x))
    return max - min
  })
  assert.ok(
    widths.every((w) => w > 10),
    `every style drew: ${widths}`,
  )
  assert.ok(new Set(widths).size >= 6, `styles differ: ${widths}`)
})

test.run()
