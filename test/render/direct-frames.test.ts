import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createRenderer } from '../../index.js'
import { decodeFrames, type Frames } from '../helpers/frames.js'
import { lavfi, tempDir } from '../helpers/media.js'
import { edit } from '../helpers/render.js'

// A frame that one opaque video covers pixel for pixel (core/render/cover.ts) goes from the decoder to the encoder
// without being drawn; REELFORGE_DIRECT_FRAMES=off draws it as before. Both must give the very same frames.

const dir = tempDir('reelforge-direct-frames-')
const test = suite('frames straight from a decoder')
const renderer = createRenderer({ cacheDir: join(dir, 'cache') })
const size = { width: 640, height: 360 }
let src = ''

test.before(async () => {
  src = await lavfi('testsrc2=s=640x360:r=25:d=4', join(dir, 'src.mp4'), ['-c:v', 'libx264', '-crf', '14', '-pix_fmt', 'yuv420p'])
})

async function both(e: object, name: string, format = 'mp4') {
  const run = async (direct: boolean) => {
    process.env.REELFORGE_DIRECT_FRAMES = direct ? 'on' : 'off'
    try {
      const out = join(dir, `${name}-${direct ? 'direct' : 'drawn'}.${format}`)
      const result = await renderer.render(e as never, { out })
      return { result, frames: await decodeFrames(out, size.width, size.height) }
    } finally {
      delete process.env.REELFORGE_DIRECT_FRAMES
    }
  }
  return { direct: await run(true), drawn: await run(false) }
}

function assertSame(a: Frames, b: Frames) {
  assert.is(a.count, b.count)
  for (let i = 0; i < a.count; i++) {
    const x = a.frame(i)
    const y = b.frame(i)
    let worst = 0
    for (let k = 0; k < x.length; k++) worst = Math.max(worst, Math.abs(x[k]! - y[k]!))
    assert.is(worst, 0, `frame ${i} differs by up to ${worst}`)
  }
}

test('a full-frame clip with fades and a title over its middle: only the frames it covers alone go direct, all identical', async () => {
  const title = { asset: { type: 'text', text: 'Over the clip', font: { size: 40, color: '#ffffff' } }, start: 1.5, length: 1 }
  const clip = { asset: { type: 'video', src }, start: 0, length: 4, transition: { in: 'fade', out: 'fade' } }
  const e = edit([title], { size, fps: 12 }, { tracks: [{ clips: [title] }, { clips: [clip] }] })
  const { direct, drawn } = await both(e, 'fades')
  // 48 frames: fading in to t = 1 s (0–11) and out after t = 3 s (37–47), the title over 1.5–2.5 s (18–29).
  assert.equal([direct.result.direct, drawn.result.direct], [13, 0])
  assert.is(direct.result.drawn, 35)
  assertSame(direct.frames, drawn.frames)
})

test('mov (RGBA to the encoder): direct frames too, identical', async () => {
  const e = edit([{ asset: { type: 'video', src }, start: 0, length: 2 }], { size, fps: 12, format: 'mov' })
  const { direct, drawn } = await both(e, 'mov', 'mov')
  assert.equal([direct.result.direct, direct.result.drawn], [24, 0])
  assertSame(direct.frames, drawn.frames)
})

test('a clip that does not cover the frame pixel for pixel is drawn: offset, scaled, filtered, smaller, zooming', async () => {
  // zoomIn starts at zoom 1: its first frame alone covers the frame exactly.
  const variants: [string, object, object | undefined, number][] = [
    ['offset', { offset: { x: 0.01 } }, undefined, 0],
    ['scaled', { scale: 0.9 }, undefined, 0],
    ['filtered', { filter: 'greyscale' }, undefined, 0],
    ['smaller', {}, { size: { width: 800, height: 450 } }, 0],
    ['zoomed', { effect: 'zoomIn' }, undefined, 1],
  ]
  for (const [name, more, output, direct] of variants) {
    const e = edit([{ asset: { type: 'video', src }, start: 0, length: 1, ...more }], { size, fps: 12, ...output })
    const result = await renderer.render(e as never, { out: join(dir, `${name}.mp4`) })
    assert.equal([result.direct, result.drawn], [direct, 12 - direct], name)
  }
})

test.run()
