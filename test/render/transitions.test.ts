import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { defineTransitionPlugin } from '../../index.js'
import { easing } from '../../kit.js'
import { mean, near, pixel, type Frames } from '../helpers/frames.js'
import { solidPng, tempDir } from '../helpers/media.js'
import { edit, renderAndDecode } from '../helpers/render.js'

const dir = tempDir()
let red = ''
let block = ''

/** x of the centre of "redness" along row y: finds where a red block sits. */
function redCentroid(f: Frames, i: number, y: number): number {
  let sum = 0,
    weight = 0
  for (let x = 0; x < f.width; x++) {
    const [r, , b] = pixel(f, i, x, y)
    const w = Math.max(0, r - b)
    sum += w * x
    weight += w
  }
  return sum / weight
}

const fade = suite('fade')
fade.before(async () => {
  red = await solidPng(join(dir, 'red.png'), 64, 36, '#ff0000')
  block = await solidPng(join(dir, 'block.png'), 200, 200, '#ff0000')
})
fade('fade in: background at the start, ≈ 50 % blend at the midpoint, the image at the end', async () => {
  const { frames } = await renderAndDecode(edit([{ asset: { type: 'image', src: red }, start: 0, length: 2, transition: { in: 'fade' } }], { fps: 24 }))
  assert.ok(near(mean(frames, 0, 140, 80, 180, 100), [0, 0, 255]), `t=0 ${mean(frames, 0, 140, 80, 180, 100)}`)
  const mid = mean(frames, 12, 140, 80, 180, 100) // t = 0.5 s of a 1 s fade (easeInOut is symmetric)
  assert.ok(near(mid, [128, 0, 128], 10), `midpoint ${mid}`)
  assert.ok(near(mean(frames, 24, 140, 80, 180, 100), [255, 0, 0]), 'after the fade')
})
fade('fadeFast out ends on the background; fadeSlow lasts 2 s', async () => {
  const clips = [
    { asset: { type: 'image', src: red }, start: 0, length: 1, transition: { out: 'fadeFast' } },
    { asset: { type: 'image', src: red }, start: 1, length: 3, transition: { in: 'fadeSlow' } },
  ]
  const { frames } = await renderAndDecode(edit(clips, { fps: 24 }))
  const at = (i: number) => mean(frames, i, 140, 80, 180, 100)
  assert.ok(near(at(6), [255, 0, 0]), 'before the 0.5 s fade-out')
  assert.ok(near(at(18), [128, 0, 128], 10), `half way through the fast fade-out: ${at(18)}`)
  assert.ok(near(at(24 + 24), [128, 0, 128], 10), `1 s into the 2 s fade-in: ${at(48)}`)
})
fade.run()

const slide = suite('slide transitions')
slide('slideLeft in: the image arrives from the right while fading up (mid-transition frame)', async () => {
  // 1280x720 so the 2.5 % travel is 32 px. At 25 fps, frame 5 is t = 0.2 s of the 0.5 s slide (p = 0.4).
  const out = { size: { width: 1280, height: 720 } }
  const { frames } = await renderAndDecode(
    edit([{ asset: { type: 'image', src: block }, start: 0, length: 1, fit: 'none', transition: { in: 'slideLeft' } }], out),
  )
  const settled = redCentroid(frames, 20, 360)
  const moving = redCentroid(frames, 5, 360)
  assert.ok(Math.abs(settled - 640) < 2, `settled centre ${settled}`)
  const expected = 0.025 * (1 - 0.4) * 1280
  assert.ok(Math.abs(moving - settled - expected) < 3, `shift ${moving - settled}, expected ${expected}`)
  const [r] = pixel(frames, 5, 640, 360)
  const alpha = easing('ease')(0.4)
  assert.ok(Math.abs(r - 255 * alpha) < 16, `opacity at p=0.4: red ${r}, expected ≈ ${255 * alpha}`)
})
slide('slideUp moves up and slideDown moves down (y-down frame)', async () => {
  const out = { size: { width: 1280, height: 720 } }
  const clips = [
    { asset: { type: 'image', src: block }, start: 0, length: 1, fit: 'none', transition: { in: 'slideUp' } },
    { asset: { type: 'image', src: block }, start: 1, length: 1, fit: 'none', transition: { in: 'slideDown' } },
  ]
  const { frames } = await renderAndDecode(edit(clips, out))
  const rowOfRed = (i: number) => {
    for (let y = 0; y < 720; y++) if (pixel(frames, i, 640, y)[0] > 60) return y
    return -1
  }
  assert.ok(rowOfRed(3) > rowOfRed(20), 'slideUp starts lower than where it settles')
  assert.ok(rowOfRed(28) < rowOfRed(45), 'slideDown starts higher than where it settles')
})
slide.run()

const custom = suite('custom transitions through the public API')
custom('a user transition registered as a plugin runs in and out', async () => {
  // docs/plugins.md's example: a wipe that uncovers the clip from the top down.
  const wipeDown = defineTransitionPlugin({
    kind: 'transition',
    name: 'wipeDown',
    durations: { '': 1 },
    compile: ({ direction }) => ({
      apply(layer, p) {
        layer.clipBottom = direction === 'in' ? p : 1 - p
      },
    }),
  })
  const { frames } = await renderAndDecode(
    edit([{ asset: { type: 'image', src: red }, start: 0, length: 2, fit: 'cover', transition: { in: 'wipeDown' } }], { fps: 24 }),
    { plugins: [wipeDown] },
  )
  assert.ok(near(pixel(frames, 12, 160, 40), [255, 0, 0]), 'top half uncovered at p = 0.5')
  assert.ok(near(pixel(frames, 12, 160, 140), [0, 0, 255]), 'bottom half still hidden')
})
custom.run()
