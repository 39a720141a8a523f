import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { easing } from '../../kit.js'
import { isGreen, isRed, locate, pixel } from '../helpers/frames.js'
import { solidPng, tempDir } from '../helpers/media.js'
import { edit, renderAndDecode } from '../helpers/render.js'

const dir = tempDir()
let marked = ''
// 100×100 red square, green 20 px marker in its top-left corner, centred in a 320×180 frame (x 110..210, y 40..140).
const clip = (more: object, start = 0) => ({ asset: { type: 'image', src: marked }, start, length: 1, fit: 'none', ...more })

const transform = suite('transform: rotate, skew, flip')
transform.before(async () => {
  marked = await solidPng(join(dir, 'marked.png'), 100, 100, '#ff0000', { color: '#00ff00', size: 20 })
})
transform('the marker starts top-left; rotate 90 (clockwise) moves it top-right, -90 bottom-left', async () => {
  const clips = [clip({}, 0), clip({ transform: { rotate: { angle: 90 } } }, 1), clip({ transform: { rotate: { angle: -90 } } }, 2)]
  const { frames } = await renderAndDecode(edit(clips, { fps: 12 }))
  const at = (i: number) => locate(frames, i, isGreen)
  assert.ok(Math.abs(at(6).x - 120) < 2 && Math.abs(at(6).y - 50) < 2, `unrotated marker at ${at(6).x}, ${at(6).y}`)
  assert.ok(Math.abs(at(18).x - 200) < 2 && Math.abs(at(18).y - 50) < 2, `rotate 90: ${at(18).x}, ${at(18).y}`)
  assert.ok(Math.abs(at(30).x - 120) < 2 && Math.abs(at(30).y - 130) < 2, `rotate -90: ${at(30).x}, ${at(30).y}`)
})
transform("rotation turns about the position's anchor: topLeft rotates about the clip's top-left corner", async () => {
  // Anchor at (96, 36): the clip's top-left corner. Rotated 90° clockwise, the square hangs to the anchor's left.
  const { frames } = await renderAndDecode(edit([clip({ position: 'topLeft', offset: { x: 0.3, y: 0.2 }, transform: { rotate: { angle: 90 } } })], { fps: 12 }))
  const red = locate(frames, 6, isRed)
  assert.ok(Math.abs(red.maxX - 95) < 2 && red.minX <= 1, `x ${red.minX}..${red.maxX}`)
  assert.ok(Math.abs(red.minY - 36) < 2 && Math.abs(red.maxY - 135) < 2, `y ${red.minY}..${red.maxY}`)
})
transform('flip horizontal mirrors the marker to the top-right, vertical to the bottom-left', async () => {
  const clips = [clip({ transform: { flip: { horizontal: true } } }, 0), clip({ transform: { flip: { vertical: true } } }, 1)]
  const { frames } = await renderAndDecode(edit(clips, { fps: 12 }))
  const h = locate(frames, 6, isGreen),
    v = locate(frames, 18, isGreen)
  assert.ok(Math.abs(h.x - 200) < 2 && Math.abs(h.y - 50) < 2, `flip h: ${h.x}, ${h.y}`)
  assert.ok(Math.abs(v.x - 120) < 2 && Math.abs(v.y - 130) < 2, `flip v: ${v.x}, ${v.y}`)
})
transform('skew x 0.5 shears the square: rows above the centre shift left, rows below shift right', async () => {
  const { frames } = await renderAndDecode(edit([clip({ transform: { skew: { x: 0.5 } } })], { fps: 12 }))
  const row = (y: number) => locate(frames, 6, ([r, g, b]) => r > 128 || g > 128, { x0: 0, y0: y, x1: 320, y1: y + 1 })
  // x' = x + 0.5·(y − 90) about the centre anchor.
  assert.ok(Math.abs(row(50).minX - 90) <= 2 && Math.abs(row(50).maxX - 189) <= 2, `row 50: ${row(50).minX}..${row(50).maxX}`)
  assert.ok(Math.abs(row(130).minX - 130) <= 2 && Math.abs(row(130).maxX - 229) <= 2, `row 130: ${row(130).minX}..${row(130).maxX}`)
})
transform('a rotate tween (linear, 0 → 90) is at 45° half way: the marker sits on the top vertex', async () => {
  const { frames } = await renderAndDecode(
    edit([clip({ length: 2, transform: { rotate: { angle: [{ from: 0, to: 90, start: 0, length: 2, interpolation: 'linear' }] } } })], { fps: 24 }),
  )
  // The marker's centre (−40, −40) from the square's centre turns to (0, −56.6).
  const mid = locate(frames, 24, isGreen)
  assert.ok(Math.abs(mid.x - 160) < 2 && Math.abs(mid.y - (90 - 56.6)) < 2, `45°: ${mid.x}, ${mid.y}`)
  // Its corner points straight up, 70.7 px above the centre.
  const column = locate(frames, 24, ([r, g]) => r > 128 || g > 128, { x0: 160, y0: 0, x1: 161, y1: 180 })
  assert.ok(Math.abs(column.minY - (90 - 70.7)) < 2, `top vertex at y ${column.minY}`)
})
transform.run()

const tweens = suite('tweens on clip properties')
tweens.before(async () => {
  marked ||= await solidPng(join(dir, 'marked.png'), 100, 100, '#ff0000', { color: '#00ff00', size: 20 })
})
tweens('offset.x with bezier easeInOutCubic, opacity with constant, scale and skew.y linear', async () => {
  const clips = [
    clip({ length: 2, offset: { x: [{ from: -0.25, to: 0.25, start: 0, length: 2, interpolation: 'bezier', easing: 'easeInOutCubic' }] } }, 0),
    clip(
      {
        length: 2,
        opacity: [
          { from: 0.2, to: 1, start: 0, length: 1, interpolation: 'constant' },
          { from: 1, to: 0.6, start: 1, length: 1, interpolation: 'linear' },
        ],
      },
      2,
    ),
    clip({ length: 2, scale: [{ from: 0.5, to: 1, start: 0, length: 2 }] }, 4),
    clip({ length: 2, transform: { skew: { y: [{ from: 0, to: 0.4, start: 0, length: 2 }] } } }, 6),
  ]
  const { frames } = await renderAndDecode(edit(clips, { fps: 25 }))
  // Offset: x = −0.25 + 0.5·easeInOutCubic(t/2) of the frame (easings.net's curve, not symmetric).
  const drawn = ([r, g]: [number, number, number]) => r > 128 || g > 128
  const x = (i: number) => locate(frames, i, drawn).x + 0.5
  const expect = (t: number) => 160 + (-0.25 + 0.5 * easing('easeInOutCubic')(t / 2)) * 320
  for (const i of [12, 25, 37]) assert.ok(Math.abs(x(i) - expect(i / 25)) < 1.5, `offset at frame ${i}: ${x(i)} vs ${expect(i / 25)}`)
  // Opacity: constant holds 0.2 through the first second, then falls linearly to 0.6.
  const red = (i: number) => pixel(frames, i, 180, 100)[0]
  assert.ok(Math.abs(red(50 + 5) - 0.2 * 255) < 10 && Math.abs(red(50 + 20) - 0.2 * 255) < 10, `held at 0.2: ${red(55)}, ${red(70)}`)
  assert.ok(Math.abs(red(50 + 38) - 0.8 * 255) < 10, `linear half way 1 → 0.6: ${red(88)}`)
  // Scale 0.5 → 1: the square is 75 px half way.
  const w = (i: number) => locate(frames, i, drawn).maxX - locate(frames, i, drawn).minX + 1
  assert.ok(Math.abs(w(100) - 50) <= 2 && Math.abs(w(125) - 75) <= 2, `scale: ${w(100)}, ${w(125)}`)
  // Skew y 0 → 0.4: half way, the left column is 0.2·50 px higher than the right (about the centre).
  const col = (xx: number) => locate(frames, 175, drawn, { x0: xx, y0: 0, x1: xx + 1, y1: 180 })
  const dy = col(205).minY - col(115).minY
  assert.ok(Math.abs(dy - 0.2 * 90) <= 2, `skew.y half way: ${dy} px`)
})
tweens.run()
