import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { mean, near } from '../helpers/frames.js'
import { drawnPng, lavfi, solidPng, tempDir } from '../helpers/media.js'
import { edit, renderAndDecode } from '../helpers/render.js'

const dir = tempDir()
let red = '',
  green = '',
  matte = ''
const RED = [255, 0, 0],
  GREEN = [0, 255, 0],
  BLUE = [0, 0, 255]

const luma = suite('luma mattes')
luma.before(async () => {
  red = await solidPng(join(dir, 'red.png'), 320, 180, '#ff0000')
  green = await solidPng(join(dir, 'green.png'), 320, 180, '#00ff00')
  // Left third black, middle third 50 % grey, right third white.
  matte = await drawnPng(join(dir, 'matte.png'), 320, 180, (g) => {
    for (const [x, c] of [
      [0, '#000000'],
      [107, '#808080'],
      [213, '#ffffff'],
    ] as const) {
      g.fillStyle = c
      g.fillRect(x, 0, 107, 180)
    }
  })
})
luma('black hides, white shows, grey half-shows the clip on the same track; the luma itself is never drawn', async () => {
  const { frames } = await renderAndDecode(
    edit(
      [
        { asset: { type: 'luma', src: matte }, start: 0, length: 1 },
        { asset: { type: 'image', src: red }, start: 0, length: 1 },
      ],
      { fps: 12 },
    ),
  )
  const at = (x: number) => mean(frames, 6, x - 10, 80, x + 10, 100)
  assert.ok(near(at(50), BLUE), `black: the background shows (${at(50)})`)
  assert.ok(near(at(160), [128, 0, 127], 12), `grey: half and half (${at(160)})`)
  assert.ok(near(at(270), RED), `white: the clip shows (${at(270)})`)
})
luma('a video luma animates the mask: a black-to-white fade reveals the clip over time', async () => {
  const fadeIn = await lavfi('color=c=white:s=320x180:r=25:d=2,fade=t=in:st=0:d=2', join(dir, 'fade.mp4'), ['-pix_fmt', 'yuv420p'])
  const { frames } = await renderAndDecode(
    edit(
      [
        { asset: { type: 'luma', src: fadeIn }, start: 0, length: 2 },
        { asset: { type: 'image', src: red }, start: 0, length: 2 },
      ],
      { fps: 25 },
    ),
  )
  const r = (i: number) => mean(frames, i, 150, 80, 170, 100)[0]
  assert.ok(r(0) < 20, `starts hidden (${r(0)})`)
  assert.ok(Math.abs(r(25) - 128) < 20, `half way (${r(25)})`)
  assert.ok(r(49) > 235, `ends shown (${r(49)})`)
})
luma("the overlapping-tail pattern: a short luma over a clip's end turns it into a transition to the track below", async () => {
  // As in Shotstack's luma-matte example: track 1 = luma (start 1, 1 s, white → black) + red (0–2 s); track 2 = green (1–3 s).
  const fadeOut = await lavfi('color=c=white:s=320x180:r=25:d=1,fade=t=out:st=0:d=1', join(dir, 'fadeout.mp4'), ['-pix_fmt', 'yuv420p'])
  const { frames, result } = await renderAndDecode(
    edit(
      [],
      { fps: 25 },
      {
        tracks: [
          {
            clips: [
              { asset: { type: 'luma', src: fadeOut }, start: 1, length: 1 },
              { asset: { type: 'image', src: red }, start: 0, length: 2 },
            ],
          },
          { clips: [{ asset: { type: 'image', src: green }, start: 1, length: 2 }] },
        ],
      },
    ),
  )
  assert.is(result.duration, 3)
  const c = (i: number) => mean(frames, i, 150, 80, 170, 100)
  assert.ok(near(c(12), RED), `before the luma: red unmasked (${c(12)})`)
  assert.ok(near(c(26), RED, 25), `luma starts white: still red (${c(26)})`)
  assert.ok(near(c(37), [128, 128, 0], 25), `half way: red over green at half (${c(37)})`)
  assert.ok(near(c(49), GREEN, 25), `luma nearly black: green shows through (${c(49)})`)
  assert.ok(near(c(60), GREEN), `after: green (${c(60)})`)
})
luma.run()
