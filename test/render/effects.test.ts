import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { SHOTSTACK_EFFECTS } from '../../kit.js'
import { locate, luma, pixel } from '../helpers/frames.js'
import { drawnPng, tempDir } from '../helpers/media.js'
import { edit, renderAndDecode } from '../helpers/render.js'

const dir = tempDir()
let picture = ''

const square = (rgb: [number, number, number]) => luma(rgb) > 113

const effects = suite('motion effects')
effects.before(async () => {
  // Frame-sized red picture with a green square in the middle: the square shows the motion. Green is
  // brighter than red, so its edges are found on luma (full resolution in yuv420p).
  picture = await drawnPng(join(dir, 'pic.png'), 320, 180, (g) => {
    g.fillStyle = '#ff0000'
    g.fillRect(0, 0, 320, 180)
    g.fillStyle = '#00ff00'
    g.fillRect(150, 80, 20, 20)
  })
})
effects('all 18 effects keep a frame-filling clip covering the frame on every frame (the blue background never shows)', async () => {
  assert.is(SHOTSTACK_EFFECTS.length, 18)
  const clips = SHOTSTACK_EFFECTS.map((effect, i) => ({ asset: { type: 'image', src: picture }, start: i, length: 1, effect }))
  const { frames } = await renderAndDecode(edit(clips, { fps: 12 }))
  assert.is(frames.count, 18 * 12)
  for (let i = 0; i < frames.count; i++) {
    for (const [x, y] of [
      [0, 0],
      [319, 0],
      [0, 179],
      [319, 179],
      [160, 0],
      [0, 90],
      [319, 90],
      [160, 179],
    ] as const) {
      const [, , b] = pixel(frames, i, x, y)
      assert.ok(b < 60, `${SHOTSTACK_EFFECTS[Math.floor(i / 12)]} frame ${i % 12}: background shows at (${x}, ${y})`)
    }
  }
})
effects('zoomIn grows the picture about its centre to 1.3× at the end; zoomOutFast shrinks from 1.7×', async () => {
  const clips = [
    { asset: { type: 'image', src: picture }, start: 0, length: 2, effect: 'zoomIn' },
    { asset: { type: 'image', src: picture }, start: 2, length: 2, effect: 'zoomOutFast' },
  ]
  const { frames } = await renderAndDecode(edit(clips, { fps: 25 }))
  const size = (i: number) => {
    const g = locate(frames, i, square)
    return { w: g.maxX - g.minX + 1, x: g.x, y: g.y }
  }
  assert.ok(Math.abs(size(0).w - 20) <= 1, `zoomIn starts at 1× (${size(0).w})`)
  assert.ok(Math.abs(size(49).w - 20 * (1 + 0.3 * (49 / 50))) <= 1.5, `zoomIn ends near 1.3× (${size(49).w})`)
  assert.ok(Math.abs(size(49).x - 159.5) < 1 && Math.abs(size(49).y - 89.5) < 1, 'about the centre')
  assert.ok(Math.abs(size(50).w - 34) <= 1.5, `zoomOutFast starts at 1.7× (${size(50).w})`)
  assert.ok(size(99).w < 22, `and returns to 1× (${size(99).w})`)
})
effects('slideLeft pans the picture leftwards over the clip; slideUpSlow pans up by a smaller distance', async () => {
  const clips = [
    { asset: { type: 'image', src: picture }, start: 0, length: 2, effect: 'slideLeft' },
    { asset: { type: 'image', src: picture }, start: 2, length: 2, effect: 'slideUpSlow' },
  ]
  const { frames } = await renderAndDecode(edit(clips, { fps: 25 }))
  const at = (i: number) => locate(frames, i, square)
  const left = at(0).x - at(49).x
  // ±0.12 of the frame: 0.24 × 320 ≈ 77 px from the first to the last frame.
  assert.ok(Math.abs(left - 0.24 * 320 * (49 / 50)) < 3, `slideLeft travelled ${left}px`)
  assert.ok(Math.abs(at(0).y - at(49).y) < 1, 'no vertical motion')
  const up = at(50).y - at(99).y
  assert.ok(Math.abs(up - 0.06 * 180 * (49 / 50)) < 2, `slideUpSlow travelled ${up}px`)
})
effects.run()
