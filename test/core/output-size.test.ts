import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { ASPECT_RATIOS, fpsRational, outputSize, RESOLUTIONS, sizeFor } from '../../core/index.js'

// Rows asserted by Shotstack's own editor tests (SHOTSTACK.md §6.1).
const rows: [string, string, number, number][] = [
  ['hd', '16:9', 1280, 720],
  ['hd', '9:16', 720, 1280],
  ['hd', '1:1', 720, 720],
  ['hd', '4:5', 576, 720],
  ['hd', '4:3', 960, 720],
  ['1080', '9:16', 1080, 1920],
  ['1080', '1:1', 1080, 1080],
  ['4k', '9:16', 2160, 3840],
  ['preview', '16:9', 512, 288],
  ['sd', '16:9', 1024, 576],
]
for (const [res, aspect, w, h] of rows) {
  test(`${res} ${aspect} → ${w}x${h}`, () => assert.equal(sizeFor(res as never, aspect as never), { width: w, height: h }))
}

test('every resolution × aspect ratio gives even dimensions', () => {
  for (const r of RESOLUTIONS)
    for (const a of ASPECT_RATIOS) {
      const s = sizeFor(r, a)
      assert.ok(s.width % 2 === 0 && s.height % 2 === 0, `${r} ${a}: ${s.width}x${s.height}`)
    }
  assert.equal(sizeFor('sd', '4:5'), { width: 460, height: 576 })
})

test('an explicit size wins and is rounded to even; default is hd', () => {
  assert.equal(outputSize({ size: { width: 641, height: 361 } } as never), { width: 642, height: 362 })
  assert.equal(outputSize({} as never), { width: 1280, height: 720 })
})

test('NTSC rates are exact rationals', () => {
  assert.is(fpsRational(29.97), '30000/1001')
  assert.is(fpsRational(23.976), '24000/1001')
  assert.is(fpsRational(25), '25')
})

test.run()
