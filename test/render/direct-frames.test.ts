import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createRenderer } from '../../index.js'
import { decodeFrames } from '../helpers/frames.js'
import { withEnv } from '../helpers/env.js'
import { lavfi, tempDir } from '../helpers/media.js'
import { rawFrames, renderBothWays, worstDifference } from '../helpers/raw-frames.js'
import { edit } from '../helpers/render.js'

// A frame that one opaque video covers pixel for pixel (core/render/cover.ts) goes from the decoder to the encoder
// without being drawn; REELFORGE_DIRECT_FRAMES=off draws it as before. The very same frames must come out.

const dir = tempDir('reelforge-direct-frames-')
const test = suite('frames straight from a decoder')
const renderer = createRenderer({ cacheDir: join(dir, 'cache'), plugins: [rawFrames] })
const size = { width: 640, height: 360 }
let src = ''

test.before(async () => {
  src = await lavfi('testsrc2=s=640x360:r=25:d=4', join(dir, 'src.mp4'), ['-c:v', 'libx264', '-crf', '14', '-pix_fmt', 'yuv420p'])
})

const both = (e: object, name: string, format: string) => renderBothWays(renderer, e, (direct) => join(dir, `${name}-${direct ? 'direct' : 'drawn'}.${format}`))

test('a full-frame clip with fades and a title over its middle: every frame it covers skips the GPU', async () => {
  const title = { asset: { type: 'text', text: 'Over the clip', font: { size: 40, color: '#ffffff' } }, start: 1.5, length: 1 }
  const clip = { asset: { type: 'video', src }, start: 0, length: 4, transition: { in: 'fade', out: 'fade' } }
  const e = edit([], { size, fps: 12, format: 'raw-rgba' }, { tracks: [{ clips: [title] }, { clips: [clip] }] })
  const { direct, drawn } = await both(e, 'fades', 'rgba')
  // 48 frames: frame 0 (faded out: only the background) is filled on the CPU; the fades (1–11, 37–47) are made
  // there over the background and the title (18–29) blended there (cover-frames.test.ts); 12–17 and 30–36 go unchanged.
  assert.equal([direct.result.direct, direct.result.drawn, drawn.result.direct], [48, 0, 0])
  const [a, b] = [direct.frames!, drawn.frames!]
  assert.is(worstDifference([...a.slice(12, 18), ...a.slice(30, 37)], [...b.slice(12, 18), ...b.slice(30, 37)]), 0, 'unchanged frames')
  assert.ok(worstDifference(a, b) <= 2, 'fading frames within 2 levels')
})

test('mp4 and mov (I420 and RGBA to the encoder): the same file either way', async () => {
  // The clip decoded to RGBA both ways: decoded to I420 (the default for it where frames are packed on the CPU) its
  // frames are converted in the render process, within 3 levels of swscale's (i420-frames.test.ts).
  for (const format of ['mp4', 'mov']) {
    const e = edit([{ asset: { type: 'video', src }, start: 0, length: 2 }], { size, fps: 12, format })
    const { direct, drawn } = await withEnv({ REELFORGE_DECODED_I420: 'off' }, () => both(e, format, format))
    assert.equal([direct.result.direct, direct.result.drawn], [24, 0])
    const [x, y] = await Promise.all([decodeFrames(direct.out, size.width, size.height), decodeFrames(drawn.out, size.width, size.height)])
    assert.is(x.count, 24)
    for (let i = 0; i < x.count; i++) assert.ok(Buffer.from(x.frame(i)).equals(Buffer.from(y.frame(i))), `${format} frame ${i}`)
  }
})

test('a clip that does not cover the whole frame, or not alone, is drawn: offset, shrunk, filtered, rotated', async () => {
  const variants: [string, object][] = [
    ['offset', { offset: { x: 0.01 } }],
    ['shrunk', { scale: 0.9 }],
    ['filtered', { filter: 'greyscale' }],
    ['rotated', { transform: { rotate: { angle: 1 } } }],
  ]
  for (const [name, more] of variants) {
    const e = edit([{ asset: { type: 'video', src }, start: 0, length: 1, ...more }], { size, fps: 12 })
    const result = await renderer.render(e as never, { out: join(dir, `${name}.mp4`) })
    assert.equal([result.direct, result.drawn], [0, 12], name)
  }
})

test.run()
