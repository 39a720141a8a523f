import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { BT709_TAGS, createRgbaConverter, runFfmpeg, type YuvMatrix } from '../../core/index.js'
import { createCpuWarp } from '../../core/render/cpu-warp.js'
import { createI420Converter } from '../../core/render/cpu-yuv.js'
import { lavfi, tempDir } from '../helpers/media.js'
import { KERNEL_SIZES, seededBytes } from '../helpers/seeded.js'

// A clip that decodes to I420 (plugins/lib/video/decoded-source.ts) has the frames it must draw or blend converted to
// RGBA in WebAssembly SIMD (core/render/i420-to-rgba.wat) instead of by swscale in its decoder.

const dir = tempDir('reelforge-cpu-rgba-')
const test = suite('I420 to RGBA on the CPU')

/** Each matrix's luma weights of red and blue (green's is the rest). */
const WEIGHTS: Record<YuvMatrix, { kr: number; kb: number }> = { bt709: { kr: 0.2126, kb: 0.0722 }, bt601: { kr: 0.299, kb: 0.114 } }
const MATRICES = Object.keys(WEIGHTS) as YuvMatrix[]

/** `matrix` TV range to full-range RGB in floating point (nearest chroma), clipped to 0..255. */
function exact(yuv: Uint8Array, w: number, h: number, x: number, y: number, matrix: YuvMatrix = 'bt709'): [number, number, number] {
  const { kr, kb } = WEIGHTS[matrix]
  const kg = 1 - kr - kb
  const c = (y >> 1) * (w / 2) + (x >> 1)
  const l = ((yuv[y * w + x]! - 16) * 255) / 219
  const u = ((yuv[w * h + c]! - 128) * 255) / 224
  const v = ((yuv[(w * h * 5) / 4 + c]! - 128) * 255) / 224
  const clip = (n: number) => Math.min(255, Math.max(0, n))
  const [vr, ub] = [2 * (1 - kr), 2 * (1 - kb)]
  return [clip(l + vr * v), clip(l - ((kb * ub) / kg) * u - ((kr * vr) / kg) * v), clip(l + ub * u)]
}

test('every R, G and B is the exact value of its matrix rounded (within 0.6), alpha 255, at widths the 16-pixel steps do not divide', () => {
  const random = seededBytes(11)
  for (const matrix of MATRICES)
    for (const [w, h] of KERNEL_SIZES) {
      const yuv = Uint8Array.from({ length: (w * h * 3) / 2 }, random)
      const rgba = createRgbaConverter(w, h, matrix)!.convert(yuv)
      for (let y = 0; y < h; y++)
        for (let x = 0; x < w; x++) {
          const i = 4 * (y * w + x)
          exact(yuv, w, h, x, y, matrix).forEach((want, ch) =>
            assert.ok(Math.abs(rgba[i + ch]! - want) < 0.6, `${matrix} ${w}x${h} (${x}, ${y}) channel ${ch}: ${rgba[i + ch]} for ${want.toFixed(2)}`),
          )
          assert.is(rgba[i + 3], 255)
        }
    }
  assert.is(createRgbaConverter(15, 2), undefined, 'odd width')
  assert.is(createRgbaConverter(8, 2), undefined, 'narrower than a step')
})

// Untagged clips are BT.601 to swscale, which decodes them where they do not decode to I420; SD tags say so too.
const SOURCES: [string, string[], YuvMatrix][] = [
  ['tagged BT.709', BT709_TAGS, 'bt709'],
  ['untagged', [], 'bt601'],
  ['tagged SMPTE 170M', ['-colorspace', 'smpte170m', '-color_primaries', 'smpte170m', '-color_trc', 'smpte170m', '-color_range', 'tv'], 'bt601'],
]

for (const [label, tags, matrix] of SOURCES)
  test(`what swscale's yuv420p → rgba makes of a decoded ${label} frame, within its own error (3 levels), nearer the exact values`, async () => {
    const [w, h] = [640, 360]
    const src = await lavfi('testsrc2=s=640x360:r=25:d=1', join(dir, `${matrix}-${tags.length}.mp4`), ['-c:v', 'libx264', '-pix_fmt', 'yuv420p', ...tags])
    const raw = async (format: string) => {
      const out = join(dir, `frame.${format}`)
      // The filters a clip's decoder runs (core/ffmpeg/decoder.ts), to either format.
      await runFfmpeg(['-v', 'error', '-y', '-i', src, '-vf', `scale=${w}:${h}:flags=bicubic,format=${format}`, '-frames:v', '1', '-f', 'rawvideo', out])
      return new Uint8Array(readFileSync(out))
    }
    const [yuv, swscale] = [await raw('yuv420p'), await raw('rgba')]
    const ours = createRgbaConverter(w, h, matrix)!.convert(yuv)
    let worst = 0
    let oursOff = 0
    let theirsOff = 0
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++)
        exact(yuv, w, h, x, y, matrix).forEach((want, ch) => {
          const i = 4 * (y * w + x) + ch
          worst = Math.max(worst, Math.abs(ours[i]! - swscale[i]!))
          oursOff += Math.abs(ours[i]! - want)
          theirsOff += Math.abs(swscale[i]! - want)
        })
    assert.ok(worst <= 3, `worst ${worst}`)
    assert.ok(oursOff < theirsOff, `mean error ${oursOff / (w * h * 3)} against swscale's ${theirsOff / (w * h * 3)}`)
  })

test('through RGBA and back in one pass: the very bytes of converting the frame and packing it', () => {
  // A covering clip's frame goes this way (decoded-source.ts, i420-through.wat). 324 wide: the 16-pixel steps
  // overlap at the end; random planes put much of the frame outside the RGB gamut, clipped on the way; black and
  // white planes with extreme chroma reach the clipping at both ends.
  const random = (w: number, h: number, seed: number) => Uint8Array.from({ length: (w * h * 3) / 2 }, seededBytes(seed))
  const flat = (w: number, h: number, luma: number, chroma: number) =>
    Uint8Array.from({ length: (w * h * 3) / 2 }, (_, i) => (i < w * h ? luma : i < (w * h * 5) / 4 ? chroma : 255 - chroma))
  const cases: [number, number, Uint8Array][] = [
    [324, 6, random(324, 6, 5)],
    [1920, 4, random(1920, 4, 9)],
    [16, 2, random(16, 2, 3)],
    [32, 2, flat(32, 2, 0, 0)],
    [32, 2, flat(32, 2, 255, 255)],
  ]
  for (const matrix of MATRICES)
    for (const [w, h, yuv] of cases) {
      const converter = createRgbaConverter(w, h, matrix)!
      const packer = createI420Converter(w, h)!
      packer.rgba.set(converter.convert(yuv))
      const whole = new Uint8Array(yuv.length)
      packer.convert(whole)
      assert.ok(Buffer.from(converter.throughRgba(yuv)).equals(Buffer.from(whole)), `${matrix} ${w}×${h}`)
    }
})

test('fading through RGBA in one pass: the very bytes of converting, warping at one texel a pixel with the opacity, packing', () => {
  // A clip fading in or out over the background with nothing over it goes this way (cover-frames.ts, decoded-source.ts).
  for (const matrix of MATRICES)
    for (const [w, h] of KERNEL_SIZES) {
      const yuv = Uint8Array.from({ length: (w * h * 3) / 2 }, seededBytes(w + h))
      const converter = createRgbaConverter(w, h, matrix)!
      const frame = { width: w, height: h }
      for (const [opacity, background] of [
        [0.37, [0.2, 0.4, 0.6, 1]],
        [0.999, [1, 0, 0.5, 1]],
        [0.002, [0, 0, 0, 1]],
        [0, [0.48, 0.24, 0.57, 0.5]],
        [1, [0.1, 0.1, 0.1, 1]],
      ] as const) {
        const call = { pixels: converter.convert(yuv), refilled: true, size: frame, matrix: [w, 0, 0, h, 0, 0], uv: [0, 0, 1, 1], opacity, background } as const
        const packer = createI420Converter(w, h)!
        packer.rgba.set(createCpuWarp(frame).draw({ ...call, matrix: [...call.matrix] }))
        const whole = new Uint8Array(yuv.length)
        packer.convert(whole)
        assert.ok(Buffer.from(converter.fadeThroughRgba(yuv, opacity, background)).equals(Buffer.from(whole)), `${matrix} ${w}×${h} at ${opacity}`)
      }
    }
})

test.run()
