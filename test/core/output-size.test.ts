import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { ASPECT_RATIOS, fpsRational, outputSize, RESOLUTIONS, scaleToSize, sizeFor } from '../../core/index.js'

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

test("scaleTo: the resolution × aspect ratio; with a custom size, that size within the resolution's box", () => {
  assert.equal(scaleToSize({ resolution: 'hd', scaleTo: 'preview' }), { width: 512, height: 288 })
  assert.equal(scaleToSize({ resolution: 'hd', aspectRatio: '9:16', scaleTo: 'sd' }), { width: 576, height: 1024 })
  // Shotstack's hello-world edit: a 1280×720 `size` previewed. Vertical, square and 3:2 sizes keep their aspect.
  assert.equal(scaleToSize({ size: { width: 1280, height: 720 }, scaleTo: 'preview' }), { width: 512, height: 288 })
  assert.equal(scaleToSize({ size: { width: 1080, height: 1920 }, scaleTo: 'preview' }), { width: 288, height: 512 })
  assert.equal(scaleToSize({ size: { width: 1000, height: 1000 }, scaleTo: 'mobile' }), { width: 360, height: 360 })
  assert.equal(scaleToSize({ size: { width: 1200, height: 800 }, scaleTo: 'preview' }), { width: 432, height: 288 })
  // Within the resolution's box: a wide or thin size never gets more pixels than the resolution has.
  assert.equal(scaleToSize({ size: { width: 2400, height: 1000 }, scaleTo: 'hd' }), { width: 1280, height: 534 })
  assert.equal(scaleToSize({ size: { width: 4096, height: 2 }, scaleTo: '4k' }), { width: 3840, height: 2 })
  assert.is(scaleToSize({ size: { width: 3840, height: 1600 }, scaleTo: '4k' }), undefined)
  // Up as well as down; none where there is nothing to scale.
  assert.equal(scaleToSize({ size: { width: 640, height: 360 }, scaleTo: '1080' }), { width: 1920, height: 1080 })
  assert.is(scaleToSize({ size: { width: 512, height: 288 }, scaleTo: 'preview' }), undefined)
  assert.is(scaleToSize({ resolution: 'hd' }), undefined)
})

test.run()
