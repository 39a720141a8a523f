import { spawnSync } from 'node:child_process'
import { statSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createRenderer } from '../../index.js'
import { probe } from '../../kit.js'
import { createI420Converter } from '../../core/render/cpu-yuv.js'
import { argOf, childCommands } from '../helpers/children.js'
import { withEnv } from '../helpers/env.js'
import { chartEdit, PATCHES, patch, playerRgb } from '../helpers/colour.js'
import { decodeFrames } from '../helpers/frames.js'
import { lavfi, tempDir } from '../helpers/media.js'
import { edit } from '../helpers/render.js'
import { KERNEL_SIZES, seededBytes } from '../helpers/seeded.js'

// On a software GL renderer (llvmpipe) frames are read back as RGBA and packed to I420 in WebAssembly SIMD
// (core/render/rgba-to-i420.wat) instead of by swscale in the encoder: the numbers of the GPU pack shader.

const dir = tempDir('reelforge-cpu-yuv-')
const test = suite('I420 packed on the CPU')
const renderer = createRenderer({ cacheDir: join(dir, 'cache') })

/** BT.709 TV range in floating point: Y of a pixel, U and V of a 2×2 block's mean. */
function exact(rgba: Uint8Array, w: number, h: number) {
  const y = new Float64Array(w * h)
  const u = new Float64Array((w * h) / 4)
  const v = new Float64Array((w * h) / 4)
  const luma = (r: number, g: number, b: number) => 0.2126 * r + 0.7152 * g + 0.0722 * b
  for (let i = 0; i < w * h; i++) y[i] = 16 + (219 / 255) * luma(rgba[4 * i]!, rgba[4 * i + 1]!, rgba[4 * i + 2]!)
  for (let by = 0; by < h / 2; by++)
    for (let bx = 0; bx < w / 2; bx++) {
      const m = [0, 1, 2].map((c) => [0, 1, w, w + 1].reduce((s, d) => s + rgba[4 * (2 * by * w + 2 * bx + d) + c]!, 0) / 4) as [number, number, number]
      const l = luma(...m)
      u[by * (w / 2) + bx] = 128 + ((224 / 255) * (m[2] - l)) / 1.8556
      v[by * (w / 2) + bx] = 128 + ((224 / 255) * (m[0] - l)) / 1.5748
    }
  return [y, u, v]
}

function packed(rgba: Uint8Array, w: number, h: number) {
  const c = createI420Converter(w, h)!
  c.rgba.set(rgba)
  const out = new Uint8Array((w * h * 3) / 2)
  c.convert(out)
  return [out.subarray(0, w * h), out.subarray(w * h, (w * h * 5) / 4), out.subarray((w * h * 5) / 4)]
}

test('every Y, U and V is the exact BT.709 value rounded (within 0.52 of it), at widths the 16-pixel steps do not divide', () => {
  const random = seededBytes(7)
  for (const [w, h] of KERNEL_SIZES) {
    const rgba = Uint8Array.from({ length: w * h * 4 }, random)
    const got = packed(rgba, w, h)
    exact(rgba, w, h).forEach((plane, p) =>
      plane.forEach((want, i) => assert.ok(Math.abs(got[p]![i]! - want) < 0.52, `${w}x${h} plane ${p} [${i}]: ${got[p]![i]} for ${want.toFixed(2)}`)),
    )
  }
})

const solid = (c: number) => packed(new Uint8Array(16 * 2 * 4).fill(c), 16, 2).map((p) => p[0])

test('chroma is the 2×2 block mean (no point sampling): red and blue columns over green and white rows', () => {
  const w = 32
  const rgba = new Uint8Array(w * 2 * 4)
  for (let x = 0; x < w; x++) rgba.set(x % 2 ? [0, 0, 255, 255] : [255, 0, 0, 255], 4 * x)
  for (let x = 0; x < w; x++) rgba.set([0, 255, 0, 255], 4 * (w + x))
  const [, u, v] = packed(rgba, w, 2)
  const [, eu, ev] = exact(rgba, w, 2)
  assert.equal([u![0], v![0]], [Math.round(eu![0]!), Math.round(ev![0]!)])
  assert.equal(
    [solid(255), solid(0)],
    [
      [235, 128, 128],
      [16, 128, 128],
    ],
    'white and black',
  )
})

test('sizes the steps cannot take are refused (the caller keeps RGBA)', () => {
  assert.is(createI420Converter(15, 2), undefined)
  assert.is(createI420Converter(14, 2), undefined)
  assert.is(createI420Converter(16, 3), undefined)
})

test('the committed module is what rgba-to-i420.wat assembles to', () => {
  const run = spawnSync(process.execPath, [join(import.meta.dirname, '../../scripts/build-wasm.mjs'), '--check'], { encoding: 'utf8' })
  assert.is(run.status, 0, run.stderr)
})

/** Renders `e` packed on the CPU or by swscale; returns the encoder's input pixel format. */
function render(e: object, out: string, cpu: boolean) {
  return withEnv({ REELFORGE_GPU_YUV: 'off', REELFORGE_CPU_YUV: cpu ? 'on' : 'off' }, async () =>
    argOf((await childCommands(renderer.render(e as never, { out }))).find((c) => c.includes('pipe:0'))!, '-pix_fmt'),
  )
}

test('mp4 and webm: the chart within ±3 of the edit, tagged bt709/tv', async () => {
  for (const format of ['mp4', 'webm'] as const) {
    const out = join(dir, `chart.${format}`)
    assert.is(await render(chartEdit({ format, quality: 'high' }), out, true), 'yuv420p')
    const v = (await probe(out)).streams.find((s) => s.type === 'video')!
    assert.equal([v.colorSpace, v.colorPrimaries, v.colorTransfer, v.colorRange], ['bt709', 'bt709', 'bt709', 'tv'])
    const rgb = await playerRgb(out)
    for (const [i, [, want]] of PATCHES.entries()) {
      const got = patch(rgb, i)
      assert.ok(
        got.every((c, k) => Math.abs(c - want[k]!) <= 3),
        `${format} patch ${i}: ${got} for ${want}`,
      )
    }
  }
})

test('over a detailed moving picture it agrees with swscale: mean difference under 1.5 levels, size within 3 %', async () => {
  const src = await lavfi('testsrc2=s=640x360:r=25:d=2', join(dir, 'detail.mp4'), ['-c:v', 'libx264', '-crf', '12', '-pix_fmt', 'yuv420p'])
  const e = edit([{ asset: { type: 'video', src }, start: 0, length: 2, effect: 'zoomIn' }], { size: { width: 640, height: 360 } })
  const [cpuOut, swsOut] = [join(dir, 'detail-cpu.mp4'), join(dir, 'detail-sws.mp4')]
  assert.equal([await render(e, cpuOut, true), await render(e, swsOut, false)], ['yuv420p', 'rgba'])
  const [a, b] = await Promise.all([decodeFrames(cpuOut, 640, 360), decodeFrames(swsOut, 640, 360)])
  assert.equal([a.count, b.count], [50, 50])
  for (const i of [0, 17, 49]) {
    const x = a.frame(i)
    const y = b.frame(i)
    let sum = 0
    for (let k = 0; k < x.length; k++) sum += Math.abs(x[k]! - y[k]!)
    assert.ok(sum / x.length < 1.5, `frame ${i}: mean difference ${(sum / x.length).toFixed(2)}`)
  }
  const ratio = statSync(cpuOut).size / statSync(swsOut).size
  assert.ok(Math.abs(ratio - 1) < 0.03, `sizes ${statSync(cpuOut).size} and ${statSync(swsOut).size}`)
})

test.run()
