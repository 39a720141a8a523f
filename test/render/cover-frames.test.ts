import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createCpuWarp } from '../../core/render/cpu-warp.js'
import { wasmPixels, wasmPixelsOf } from '../../core/render/wasm-pixels.js'
import { createI420Converter } from '../../core/render/cpu-yuv.js'
import { createRenderer } from '../../index.js'
import { lavfi, solidPng, tempDir } from '../helpers/media.js'
import { rawFrames, renderBothWays, worstDifference } from '../helpers/raw-frames.js'
import { seededBytes } from '../helpers/seeded.js'

// A still that covers the frame (a Ken Burns photo: scaled and moving, fading over the background) is drawn on
// the CPU (core/render/cpu-warp.ts) instead of by llvmpipe; REELFORGE_DIRECT_FRAMES=off draws it with GL. The
// frames the encoder gets must agree within 2 levels.

const dir = tempDir('reelforge-cover-frames-')
const test = suite('frames a still covers, drawn on the CPU')
const renderer = createRenderer({ cacheDir: join(dir, 'cache'), plugins: [rawFrames] })
const size = { width: 320, height: 180 }
let photo = ''

test.before(async () => {
  // Sharp edges and per-pixel noise, so a half-texel slip or a wrong weight shows.
  photo = await lavfi('testsrc2=s=400x300,noise=alls=40:allf=u', join(dir, 'photo.jpg'), ['-frames:v', '1', '-q:v', '2'])
})

async function both(clips: object[] | object[][], name: string, background = '#336699') {
  const tracks = (Array.isArray(clips[0]) ? (clips as object[][]) : [clips as object[]]).map((c) => ({ clips: c }))
  const edit = { timeline: { background, tracks }, output: { format: 'raw-rgba', size, fps: 12 } }
  const { direct, drawn } = await renderBothWays(renderer, edit, (on) => join(dir, `${name}-${on}.rgba`))
  return { cpu: { ...direct, frames: direct.frames! }, gl: { ...drawn, frames: drawn.frames! } }
}

for (const effect of ['zoomIn', 'zoomOut', 'slideLeft', 'slideUp']) {
  test(`${effect} with fades over a coloured background: every frame on the CPU, within 2 levels of GL's`, async () => {
    const { cpu, gl } = await both([{ asset: { type: 'image', src: photo }, start: 0, length: 2, effect, transition: { in: 'fade', out: 'fade' } }], effect)
    // Frame 0 is fully faded out: only the background, filled on the CPU too.
    assert.equal([cpu.result.direct, cpu.result.drawn, gl.result.direct], [24, 0, 0])
    const worst = worstDifference(cpu.frames, gl.frames)
    assert.ok(worst <= 2, `worst difference ${worst}`)
  })
}

test('two stills crossing (the top one translucent over the other) and a see-through PNG are drawn with GL', async () => {
  const under = { asset: { type: 'image', src: photo }, start: 0, length: 1.5, effect: 'zoomIn' }
  const over = { asset: { type: 'image', src: photo }, start: 1, length: 1, effect: 'zoomOut', transition: { in: 'fade' } }
  const { cpu, gl } = await both([[over], [under]], 'crossing')
  // 24 frames: 0–12 the first alone (at 12 the second is still fully faded out): CPU; 13–17 the second fading in
  // over it: GL; 18–23 the second alone, still fading in over the background: CPU.
  assert.equal([cpu.result.direct, cpu.result.drawn], [19, 5])
  assert.ok(worstDifference(cpu.frames, gl.frames) <= 2)
  const glass = await solidPng(join(dir, 'glass.png'), 400, 300, '#ffffff80')
  const { cpu: see, gl: seen } = await both([{ asset: { type: 'image', src: glass }, start: 0, length: 1, effect: 'zoomIn' }], 'glass')
  // Never a cover. At 10/12 of its zoom it lands at one texel a pixel, so that frame is blended over the
  // background on the CPU, as GL would blend it.
  assert.equal([see.result.direct, see.result.drawn], [1, 11])
  assert.ok(worstDifference(see.frames, seen.frames) <= 2)
})

test('titles over a Ken Burns still and over a video, fading: blended on the CPU within 2 levels of GL', async () => {
  const src = await lavfi('testsrc2=s=320x180:r=12:d=2', join(dir, 'under.mp4'), ['-c:v', 'libx264', '-crf', '12', '-pix_fmt', 'yuv420p'])
  const title = (text: string, start: number) => ({
    asset: { type: 'text', text, font: { size: 28, color: '#ffee00' }, width: 300, height: 80 },
    start,
    length: 1,
    transition: { in: 'fade', out: 'fade' },
  })
  const stillThenVideo = [
    { asset: { type: 'image', src: photo }, start: 0, length: 1, effect: 'zoomIn' },
    { asset: { type: 'video', src }, start: 1, length: 1 },
  ]
  const { cpu, gl } = await both([[title('Over a still', 0), title('Over a video', 1)], stillThenVideo], 'titles')
  assert.equal([cpu.result.direct, cpu.result.drawn], [24, 0])
  const worst = worstDifference(cpu.frames, gl.frames)
  assert.ok(worst <= 2, `worst difference ${worst}`)
})

test('a title and a shape over a covering still: blended on the CPU within 2 levels of GL', async () => {
  const overlays = [
    { asset: { type: 'title', text: 'A title', style: 'minimal' }, start: 0, length: 1, transition: { out: 'fade' } },
    {
      asset: { type: 'shape', shape: 'rectangle', width: 80, height: 30, fill: { color: '#00ff88', opacity: 0.6 }, rectangle: { width: 80, height: 30 } },
      start: 0,
      length: 1,
      position: 'topLeft',
    },
  ]
  const still = { asset: { type: 'image', src: photo }, start: 0, length: 1, effect: 'slideRight' }
  const { cpu, gl } = await both([[overlays[0]!], [overlays[1]!], [still]], 'overlays')
  assert.equal([cpu.result.direct, cpu.result.drawn], [12, 0])
  const worst = worstDifference(cpu.frames, gl.frames)
  assert.ok(worst <= 2, `worst difference ${worst}`)
})

test('frames of the background alone, or of titles and shapes over it (a gap, a title card), on the CPU within 2 levels of GL (the background alone exactly)', async () => {
  // 0–5: the background alone (nothing starts before 0.5 s); 6–17: a title fading in and a see-through shape over
  // the background; 18–23: the title over a Ken Burns still. The backgrounds: black, a colour whose bytes GL
  // rounds from a float, and a see-through one (#AARRGGBB: premultiplied, as GL clears to it).
  const clips = [
    [
      {
        asset: { type: 'text', text: 'A title card', font: { size: 28, color: '#ffee00' }, width: 300, height: 80 },
        start: 0.5,
        length: 1.5,
        transition: { in: 'fade' },
      },
    ],
    [
      {
        asset: { type: 'shape', shape: 'rectangle', width: 80, height: 30, fill: { color: '#00ff88', opacity: 0.6 }, rectangle: { width: 80, height: 30 } },
        start: 0.5,
        length: 1,
        position: 'topLeft',
      },
    ],
    [{ asset: { type: 'image', src: photo }, start: 1.5, length: 0.5, effect: 'zoomIn' }],
  ]
  for (const background of ['#000000', '#7a3d91', '#807a3d91']) {
    const { cpu, gl } = await both(clips, `card-${background.slice(1)}`, background)
    // 19 made on the CPU; the other 5 repeat the frame before them (nothing moved): none drawn with GL.
    assert.equal([cpu.result.direct, cpu.result.drawn, gl.result.direct], [19, 0, 0], background)
    assert.is(worstDifference(cpu.frames.slice(0, 6), gl.frames.slice(0, 6)), 0, `${background}: the background alone`)
    const worst = worstDifference(cpu.frames, gl.frames)
    assert.ok(worst <= 2, `${background}: worst difference ${worst}`)
  }
})

test('a video scaled up to cover the frame goes the same way', async () => {
  const src = await lavfi('testsrc2=s=160x90:r=12:d=1', join(dir, 'small.mp4'), ['-c:v', 'libx264', '-crf', '12', '-pix_fmt', 'yuv420p'])
  const { cpu, gl } = await both([{ asset: { type: 'video', src }, start: 0, length: 1 }], 'video')
  assert.equal([cpu.result.direct, cpu.result.drawn], [12, 0])
  assert.ok(worstDifference(cpu.frames, gl.frames) <= 2)
})

test('warped two rows at a time straight to I420: the very bytes of warping the whole frame and packing it', () => {
  // An mp4's frame with nothing over the still goes this way (cover-frames.ts): the rows stay in the cache.
  // 648 wide: the 16-pixel steps overlap at the end of each row.
  const frame = { width: 648, height: 360 }
  const random = seededBytes(3)
  const size = { width: 813, height: 611 }
  const pixels = Uint8Array.from({ length: size.width * size.height * 4 }, (_, i) => (i % 4 === 3 ? 255 : random()))
  // One warp for every case, so its texture is reused (a still) and copied again (a clip's refilled buffer); each
  // answer against a fresh warp's whole frame, packed.
  const warp = createCpuWarp(frame)
  const cases = [
    [[700, 0, 0, 420, -31.3, -27.9], 1, false],
    [[640, 0, 0, 360, 0, 0], 0.37, false],
    [[700, 0, 0, 420, -31.3, -27.9], 1, true],
  ] as const
  for (const [matrix, opacity, refilled] of cases) {
    // The same buffer, other pixels (a decoder refilling it): colours inverted, alpha kept.
    if (refilled) for (let i = 0; i < pixels.length; i++) if (i % 4 !== 3) pixels[i] = 255 - pixels[i]!
    const call = {
      pixels,
      refilled,
      size,
      matrix: [...matrix] as never,
      uv: [0.05, 0.1, 0.9, 0.95] as const,
      opacity,
      background: [0.2, 0.4, 0.6, 1] as const,
    }
    const rows = new Uint8Array((frame.width * frame.height * 3) / 2)
    warp.drawI420(call, rows)
    const packer = createI420Converter(frame.width, frame.height)!
    packer.rgba.set(createCpuWarp(frame).draw(call))
    const whole = new Uint8Array(rows.length)
    packer.convert(whole)
    assert.ok(Buffer.from(rows).equals(Buffer.from(whole)), `opacity ${opacity}${refilled ? ', refilled' : ''}`)
  }
})

test("a photo's pixels in a memory of their own are warped where they lie: the same bytes, held once", () => {
  const frame = { width: 648, height: 360 }
  const random = seededBytes(5)
  const size = { width: 813, height: 611 }
  const own = wasmPixels(size)
  own.view().set(Uint8Array.from({ length: size.width * size.height * 4 }, (_, i) => (i % 4 === 3 ? 255 : random())))
  const copied = Uint8Array.from(own.view())
  const bytes = size.width * size.height * 4
  assert.is(own.memory.buffer.byteLength, Math.ceil(bytes / 65536) * 65536, 'room for the pixels only, at first')
  const warp = createCpuWarp(frame)
  const call = (pixels: Uint8Array, matrix: number[]) =>
    ({ pixels, refilled: false, size, matrix, uv: [0, 0.1, 1, 0.9], opacity: 0.8, background: [0, 0, 0, 1] }) as never
  for (const matrix of [
    [700, 0, 0, 420, -31.3, -27.9],
    [900, 0, 0, 540, -120, -90],
  ]) {
    const inPlace = Uint8Array.from(warp.draw(call(own.view(), matrix)))
    const asCopy = createCpuWarp(frame).draw(call(copied, matrix))
    assert.ok(Buffer.from(inPlace).equals(Buffer.from(asCopy)), 'draw')
    const a = new Uint8Array((frame.width * frame.height * 3) / 2)
    const b = new Uint8Array(a.length)
    warp.drawI420(call(own.view(), matrix), a)
    createCpuWarp(frame).drawI420(call(copied, matrix), b)
    assert.ok(Buffer.from(a).equals(Buffer.from(b)), 'drawI420')
  }
  // The warp's tables and frames went after the pixels, in their memory; the pixels are untouched.
  assert.ok(own.memory.buffer.byteLength > bytes + frame.width * frame.height * 4)
  assert.ok(Buffer.from(own.view()).equals(Buffer.from(copied)))
  assert.is(wasmPixelsOf(own.view()), own)
  assert.is(wasmPixelsOf(copied), undefined)
  // A view taken before the memory grew is empty: refused, not a stale picture.
  const stale = own.view()
  own.memory.grow(1)
  assert.throws(() => warp.draw(call(stale, [700, 0, 0, 420, 0, 0])), /not the texture size/)
})

test.run()
