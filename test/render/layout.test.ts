import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { near, pixel, type Frames } from '../helpers/frames.js'
import { solidPng, tempDir } from '../helpers/media.js'
import { edit, renderAndDecode } from '../helpers/render.js'

const RED = [255, 0, 0],
  BLUE = [0, 0, 255],
  GREEN = [0, 255, 0]
const dir = tempDir()
const img = { square: '', small: '', pale: '' }
const expectColor = (f: Frames, i: number, x: number, y: number, want: number[], what: string) => {
  const got = pixel(f, i, x, y)
  assert.ok(near(got, want), `${what}: pixel (${x},${y}) of frame ${i} is ${got}, expected ${want}`)
}

const fits = suite('fit modes (320x180 frame, 100x100 red image with a green 20px top-left marker)')
fits.before(async () => {
  img.square = await solidPng(join(dir, 'square.png'), 100, 100, '#ff0000', { color: '#00ff00', size: 20 })
  img.small = await solidPng(join(dir, 'small.png'), 40, 20, '#ff0000')
})
fits('crop fills the frame keeping the ratio; the overflow (and the marker) is cut off', async () => {
  const { frames } = await renderAndDecode(edit([{ asset: { type: 'image', src: img.square }, start: 0, length: 0.04, fit: 'crop' }]))
  expectColor(frames, 0, 10, 10, RED, 'marker cropped away')
  expectColor(frames, 0, 310, 170, RED, 'fills bottom-right')
})
fits('cover stretches to the frame (marker becomes 64x36 at the corner)', async () => {
  const { frames } = await renderAndDecode(edit([{ asset: { type: 'image', src: img.square }, start: 0, length: 0.04, fit: 'cover' }]))
  expectColor(frames, 0, 20, 12, GREEN, 'stretched marker')
  expectColor(frames, 0, 20, 60, RED, 'below marker')
  expectColor(frames, 0, 310, 170, RED, 'fills bottom-right')
})
fits('contain letterboxes: 180x180 centred, background at the sides', async () => {
  const { frames } = await renderAndDecode(edit([{ asset: { type: 'image', src: img.square }, start: 0, length: 0.04, fit: 'contain' }]))
  expectColor(frames, 0, 30, 90, BLUE, 'left bar')
  expectColor(frames, 0, 290, 90, BLUE, 'right bar')
  expectColor(frames, 0, 160, 90, RED, 'centre')
  expectColor(frames, 0, 85, 15, GREEN, 'marker at the image corner (70,0)')
})
fits('none keeps native pixels, centred', async () => {
  const { frames } = await renderAndDecode(edit([{ asset: { type: 'image', src: img.square }, start: 0, length: 0.04, fit: 'none' }]))
  expectColor(frames, 0, 160, 100, RED, 'centre')
  expectColor(frames, 0, 100, 90, BLUE, 'left of the image')
  expectColor(frames, 0, 120, 50, GREEN, 'marker at (110,40)')
})
fits.run()

const positions = suite('position anchors (40x20 image, fit none, one frame each)')
const ANCHORS: [string, number, number][] = [
  ['topLeft', 0, 0],
  ['top', 140, 0],
  ['topRight', 280, 0],
  ['left', 0, 80],
  ['center', 140, 80],
  ['right', 280, 80],
  ['bottomLeft', 0, 160],
  ['bottom', 140, 160],
  ['bottomRight', 280, 160],
]
positions('each of the 9 positions puts the image flush against its edges', async () => {
  const clips = ANCHORS.map(([position], i) => ({ asset: { type: 'image', src: img.small }, start: i / 25, length: 0.04, fit: 'none', position }))
  const { frames } = await renderAndDecode(edit(clips))
  assert.is(frames.count, 9)
  ANCHORS.forEach(([name, x, y], i) => {
    expectColor(frames, i, x + 20, y + 10, RED, `${name} inside`)
    expectColor(frames, i, x < 140 ? x + 60 : x - 20, y + 10, BLUE, `${name} beside`)
  })
})
positions.run()

const offsets = suite('offset (seed convention: +x right, +y down)')
offsets('both signs on both axes move by fractions of the frame', async () => {
  const cases: [object, number, number][] = [
    [{ x: 0.25 }, 220, 80],
    [{ x: -0.25 }, 60, 80],
    [{ y: 0.25 }, 140, 125],
    [{ y: -0.25 }, 140, 35],
  ]
  const clips = cases.map(([offset], i) => ({ asset: { type: 'image', src: img.small }, start: i / 25, length: 0.04, fit: 'none', offset }))
  const { frames } = await renderAndDecode(edit(clips))
  cases.forEach(([offset, x, y], i) => {
    expectColor(frames, i, x + 20, y + 10, RED, `offset ${JSON.stringify(offset)}`)
    expectColor(frames, i, 160, 90, BLUE, `offset ${JSON.stringify(offset)} left the centre`)
  })
})
offsets('yAxis "up" follows Shotstack\'s sign for y', async () => {
  const clips = [{ asset: { type: 'image', src: img.small }, start: 0, length: 0.04, fit: 'none', offset: { y: 0.25 } }]
  const { frames } = await renderAndDecode(edit(clips), { yAxis: 'up' })
  expectColor(frames, 0, 160, 35 + 10, RED, 'moved up')
})
offsets.run()

const looks = suite('scale, opacity and track order')
looks('scale 0.5 halves the fitted size around the anchor', async () => {
  const { frames } = await renderAndDecode(edit([{ asset: { type: 'image', src: img.square }, start: 0, length: 0.04, fit: 'contain', scale: 0.5 }]))
  expectColor(frames, 0, 160, 110, RED, 'inside the 90x90 square')
  expectColor(frames, 0, 108, 110, BLUE, 'outside (x < 115)')
  expectColor(frames, 0, 125, 55, GREEN, 'marker at (115,45)')
})
looks('opacity 0.5 blends half the layer over the background', async () => {
  const { frames } = await renderAndDecode(edit([{ asset: { type: 'image', src: img.square }, start: 0, length: 0.04, fit: 'cover', opacity: 0.5 }]))
  expectColor(frames, 0, 160, 120, [128, 0, 128], '50 % red over blue')
})
looks('tracks[0] is drawn on top of tracks[1]', async () => {
  const green = await solidPng(join(dir, 'green.png'), 100, 100, '#00ff00')
  const tracks = [
    { clips: [{ asset: { type: 'image', src: green }, start: 0, length: 0.04, fit: 'contain', scale: 0.5 }] },
    { clips: [{ asset: { type: 'image', src: img.square }, start: 0, length: 0.04, fit: 'cover' }] },
  ]
  const { frames } = await renderAndDecode(edit([], {}, { tracks }))
  expectColor(frames, 0, 160, 90, GREEN, 'top track in the middle')
  expectColor(frames, 0, 300, 160, RED, 'bottom track around it')
})
looks('the timeline background shows where nothing is drawn', async () => {
  const { frames } = await renderAndDecode(
    edit([{ asset: { type: 'image', src: img.small }, start: 0, length: 0.04, fit: 'none' }], {}, { background: '#00ff00' }),
  )
  expectColor(frames, 0, 10, 10, GREEN, 'background')
})
looks.run()
