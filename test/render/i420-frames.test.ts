import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { BT709_TAGS, createRgbaConverter, runFfmpeg, type YuvMatrix } from '../../core/index.js'
import { createRenderer } from '../../index.js'
import { argOf, childCommands } from '../helpers/children.js'
import { bt2020Chart } from '../helpers/colour.js'
import { withEnv } from '../helpers/env.js'
import { lavfi, tempDir } from '../helpers/media.js'
import { rawI420Frames, rawFrames, rawRenders, renderBothWays, worstDifference } from '../helpers/raw-frames.js'
import { edit } from '../helpers/render.js'
import { readFileSync, statSync } from 'node:fs'

// A TV-range 4:2:0 clip in BT.709's or BT.601's matrix (untagged: BT.601, as swscale reads it) drawn at the output's
// size decodes to I420 (plugins/lib/video/decoded-source.ts): the frames it covers alone go to the encoder through
// RGBA and back in the render process, the rest are converted to RGBA there (core/render/cpu-rgba.ts) instead of by
// swscale in the decoder.

const dir = tempDir('reelforge-i420-frames-')
const test = suite('I420 from the decoder to the encoder')
const renderer = createRenderer({ cacheDir: join(dir, 'cache'), plugins: [rawFrames, rawI420Frames] })
const size = { width: 640, height: 360 }
const x264 = ['-c:v', 'libx264', '-crf', '14', '-pix_fmt', 'yuv420p']
let tagged = ''
let untagged = ''
let sd = ''
let small = ''
let fullRange = ''
let smpte240m = ''

test.before(async () => {
  tagged = await lavfi('testsrc2=s=640x360:r=25:d=4', join(dir, 'tagged.mp4'), [...x264, ...BT709_TAGS])
  untagged = await lavfi('testsrc2=s=640x360:r=25:d=4', join(dir, 'untagged.mp4'), x264)
  const tags = (m: string, range = 'tv') => ['-colorspace', m, '-color_primaries', m, '-color_trc', m, '-color_range', range]
  sd = await lavfi('testsrc2=s=640x360:r=25:d=4', join(dir, 'smpte170m.mp4'), [...x264, ...tags('smpte170m')])
  small = await lavfi('testsrc2=s=320x180:r=25:d=1', join(dir, 'small.mp4'), [...x264, ...BT709_TAGS])
  fullRange = await lavfi('testsrc2=s=640x360:r=25:d=1', join(dir, 'full-range.mp4'), [...x264, ...tags('bt709', 'pc')])
  smpte240m = await lavfi('testsrc2=s=640x360:r=25:d=1', join(dir, 'smpte240m.mp4'), [...x264, ...tags('smpte240m')])
})

/** The source's frames at `fps` as ffmpeg decodes them (I420), on the grid a clip's decoder lays. */
async function decoded(src: string, fps: number, frames: number): Promise<Uint8Array[]> {
  const out = join(dir, `decoded-${fps}.yuv`)
  await runFfmpeg([
    '-v',
    'error',
    '-y',
    '-i',
    src,
    '-vf',
    `setpts=PTS-STARTPTS,fps=${fps}`,
    '-frames:v',
    String(frames),
    '-f',
    'rawvideo',
    '-pix_fmt',
    'yuv420p',
    out,
  ])
  const bytes = readFileSync(out)
  const n = (size.width * size.height * 3) / 2
  return Array.from({ length: frames }, (_, i) => new Uint8Array(bytes.subarray(i * n, (i + 1) * n)))
}

/** The decoders' pixel formats during a render. */
async function decoderFormats(render: Promise<unknown>): Promise<string[]> {
  const commands = await childCommands(render)
  return commands.filter((c) => c.includes('-i') && argOf(c, '-f') === 'rawvideo' && !c.includes('-s')).map((c) => argOf(c, '-pix_fmt'))
}

// swscale's yuv420p → rgba in the decoder is up to 3 levels off the exact BT.709 values (its fixed-point tables);
// the WebAssembly conversion within 0.6 (cpu-rgba.test.ts): frames converted either way agree within 3.
const SWSCALE = 3

const CLIPS: [string, () => string, YuvMatrix][] = [
  ['a BT.709 clip', () => tagged, 'bt709'],
  ['an untagged clip', () => untagged, 'bt601'],
  ['a clip tagged SMPTE 170M', () => sd, 'bt601'],
]

for (const [label, src, matrix] of CLIPS)
  test(`${label} decodes to I420; every frame, unchanged, faded or titled, within 3 levels of the RGBA way`, async () => {
    const title = { asset: { type: 'text', text: 'Over the clip', font: { size: 40, color: '#ffffff' } }, start: 1.5, length: 1 }
    const clip = { asset: { type: 'video', src: src() }, start: 0, length: 4, transition: { in: 'fade', out: 'fade' } }
    const e = edit([], { size, fps: 12, format: 'raw-i420' }, { tracks: [{ clips: [title] }, { clips: [clip] }] })
    let both: Awaited<ReturnType<typeof renderBothWays>> | undefined
    const formats = await decoderFormats((async () => (both = await renderBothWays(renderer, e, (d) => join(dir, `${matrix}-${d}.i420`))))())
    assert.equal(formats, ['yuv420p', 'rgba'], 'the I420 decoder, then with direct frames off the RGBA one')
    const { direct, drawn } = both!
    // Frame 0 is the background alone (the clip fully faded out), filled on the CPU too.
    assert.equal([direct.result.direct, direct.result.drawn, drawn.result.direct], [48, 0, 0])
    // The unchanged frames (12–17, 30–36): the decoded frame through RGBA and back, as drawing it would leave it —
    // testsrc2's colour edges put 4:2:0 chroma outside the RGB gamut (up to ~20 levels), clipped either way.
    const source = await decoded(src(), 12, 48)
    const through = createRgbaConverter(size.width, size.height, matrix)!
    const a = direct.frames!
    for (const i of [12, 13, 14, 15, 16, 17, 30, 31, 32, 33, 34, 35, 36])
      assert.ok(Buffer.from(a[i]!).equals(Buffer.from(through.throughRgba(source[i]!))), `frame ${i}: the decoded one through RGBA`)
    const worst = worstDifference(a, drawn.frames!)
    assert.ok(worst <= SWSCALE, `every frame within ${SWSCALE} levels of the RGBA way, worst ${worst}`)
  })

test('an HDR clip decodes to I420 after its tone map (BT.709, as the map ends); its frames within 3 levels of the RGBA way', async () => {
  // The chart in HLG, 1280×720, drawn at 640×360: scaled, tone-mapped, then handed over as I420 (colour-hdr.test.ts
  // checks every patch of such a render against ffmpeg's own tone map).
  const hlg = bt2020Chart(join(dir, 'hlg.mp4'), 'arib-std-b67')
  const e = edit([{ asset: { type: 'video', src: hlg }, start: 0, length: 1 }], { size, fps: 12, format: 'raw-i420' })
  let both: Awaited<ReturnType<typeof renderBothWays>> | undefined
  const formats = await decoderFormats((async () => (both = await renderBothWays(renderer, e, (d) => join(dir, `hlg-${d}.i420`))))())
  assert.equal(formats, ['yuv420p', 'rgba'], 'the I420 decoder, then with direct frames off the RGBA one')
  const worst = worstDifference(both!.direct.frames!, both!.drawn.frames!)
  assert.ok(worst <= SWSCALE, `worst ${worst}`)
})

test('a clip fading over the background, faded on its way to I420: the very frames of blending it as RGBA', async () => {
  // The fades (decoded-source.ts `i420Over`, i420-through.wat `fade`) against REELFORGE_FADED_I420=off: converted
  // to RGBA, warped at one texel a pixel with the opacity, packed. Over a colour whose bytes GL rounds from a float.
  const clip = { asset: { type: 'video', src: tagged }, start: 0, length: 2, transition: { in: 'fade', out: 'fadeFast' } }
  const e = edit([clip], { size, fps: 12, format: 'raw-i420' }, { background: '#7a3d91', tracks: [{ clips: [clip] }] })
  const frames = (way: string) =>
    withEnv({ REELFORGE_FADED_I420: way }, async () => {
      const out = join(dir, `fading-${way}.i420`)
      assert.equal(await decoderFormats(renderer.render(e as never, { out })), ['yuv420p'], way)
      return rawRenders.get(out)!
    })
  const [faded, blended] = [await frames('on'), await frames('off')]
  assert.is(faded.length, 24)
  for (let i = 0; i < 24; i++) assert.ok(Buffer.from(faded[i]!).equals(Buffer.from(blended[i]!)), `frame ${i}`)
  // Fading: the frames differ from one another (not the background alone, not the clip alone).
  assert.not.ok(Buffer.from(faded[3]!).equals(Buffer.from(faded[12]!)))
})

test('noisy saturated footage encodes to the same size either way (within 3 %)', async () => {
  // Handed on as decoded, such footage grew files 11 % (its out-of-gamut noise kept): the I420 goes through RGBA.
  const noisy = await lavfi('mandelbrot=s=640x360:r=25,noise=alls=30:allf=t', join(dir, 'noisy.mp4'), ['-t', '1', ...x264, ...BT709_TAGS])
  const e = edit([{ asset: { type: 'video', src: noisy }, start: 0, length: 1 }], { size, fps: 25, format: 'mp4' })
  const bytes = (way: string, decoder: string) =>
    withEnv({ REELFORGE_DECODED_I420: way }, async () => {
      const out = join(dir, `noisy-${way}.mp4`)
      assert.equal(await decoderFormats(renderer.render(e as never, { out })), [decoder])
      return statSync(out).size
    })
  const [rgba, i420] = [await bytes('off', 'rgba'), await bytes('on', 'yuv420p')]
  assert.ok(Math.abs(i420 / rgba - 1) < 0.03, `${i420} bytes against ${rgba}`)
})

test('RGBA decoding where the I420 could not go on as it is: full range, a matrix the kernels lack, smaller than the frame, an RGBA output', async () => {
  const cases: [string, object, string][] = [
    ['full range', { asset: { type: 'video', src: fullRange }, start: 0, length: 0.5 }, 'raw-i420'],
    ['smpte240m', { asset: { type: 'video', src: smpte240m }, start: 0, length: 0.5 }, 'raw-i420'],
    ['smaller', { asset: { type: 'video', src: small }, start: 0, length: 0.5, fit: 'none' }, 'raw-i420'],
    ['rgba out', { asset: { type: 'video', src: tagged }, start: 0, length: 0.5 }, 'raw-rgba'],
  ]
  for (const [name, clip, format] of cases) {
    const e = edit([clip], { size, fps: 12, format })
    const formats = await decoderFormats(renderer.render(e as never, { out: join(dir, `${name}.${format.slice(4)}`) }))
    assert.equal(formats, ['rgba'], name)
  }
})

test('an I420 clip GL draws (rotated) shows what the RGBA decoder shows, within 3 levels', async () => {
  const clip = { asset: { type: 'video', src: tagged }, start: 0, length: 1, transform: { rotate: { angle: 2 } } }
  const e = edit([clip], { size, fps: 12, format: 'raw-i420' })
  const { direct, drawn } = await renderBothWays(renderer, e, (d) => join(dir, `rotated-${d}.i420`))
  assert.equal([direct.result.direct, direct.result.drawn], [0, 12])
  const worst = worstDifference(direct.frames!, drawn.frames!)
  assert.ok(worst <= SWSCALE, `worst ${worst}`)
  rawRenders.clear()
})

test.run()
