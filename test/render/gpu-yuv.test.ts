import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createRenderer } from '../../index.js'
import { probe } from '../../kit.js'
import { argOf, childCommands } from '../helpers/children.js'
import { withEnv } from '../helpers/env.js'
import { chartEdit, PATCHES, patch, playerRgb } from '../helpers/colour.js'
import { decodeFrames } from '../helpers/frames.js'
import { lavfi, tempDir } from '../helpers/media.js'
import { edit } from '../helpers/render.js'

// Frames converted to I420 on the GPU (a pack shader, 1.5 bytes a pixel read back) instead of RGBA converted by
// ffmpeg's swscale. On by default only on a hardware GL renderer; here (llvmpipe) it is forced on with
// REELFORGE_GPU_YUV=on to prove it draws what swscale draws (REELFORGE_GPU_YUV=off REELFORGE_CPU_YUV=off: the
// software renderer's own packing, cpu-yuv.test.ts, is off too).

const dir = tempDir('reelforge-gpu-yuv-')
const test = suite('GPU-side YUV')
const renderer = createRenderer({ cacheDir: join(dir, 'cache') })
const within = (a: number[], b: number[], tol: number) => a.every((v, c) => Math.abs(v - b[c]!) <= tol)

/** Renders `e` with the GPU conversion `on`, or with swscale's; returns the encoder's input pixel format. */
function render(e: object, out: string, on: boolean) {
  return withEnv({ REELFORGE_GPU_YUV: on ? 'on' : 'off', REELFORGE_CPU_YUV: 'off' }, async () => {
    const commands = await childCommands(renderer.render(e as never, { out }))
    return argOf(commands.find((c) => c.includes('pipe:0'))!, '-pix_fmt')
  })
}

for (const format of ['mp4', 'webm'] as const) {
  test(`${format}: the encoder reads I420 from the GPU; every patch within ±3 of the edit's colour; tagged bt709/tv`, async () => {
    const out = join(dir, `chart.${format}`)
    assert.is(await render(chartEdit({ format, quality: 'high' }), out, true), 'yuv420p')
    const v = (await probe(out)).streams.find((s) => s.type === 'video')!
    assert.equal([v.colorSpace, v.colorPrimaries, v.colorTransfer, v.colorRange], ['bt709', 'bt709', 'bt709', 'tv'])
    const rgb = await playerRgb(out)
    for (const [i, [, want]] of PATCHES.entries()) assert.ok(within(patch(rgb, i), want, 3), `patch ${i}: ${patch(rgb, i)} for ${want}`)
    // The left edge of every row: a chroma row index one short (GPU division) would read the right edge's yellow.
    for (let y = 4; y < 356; y += 8) {
      const at = y * 1280 * 3
      assert.ok(within([rgb[at]!, rgb[at + 1]!, rgb[at + 2]!], PATCHES[0]![1], 8), `row ${y}, x 0: ${[rgb[at], rgb[at + 1], rgb[at + 2]]}`)
    }
  })
}

test('over a detailed moving picture the GPU and swscale conversions agree: same frames, mean difference under 1.5 levels', async () => {
  const src = await lavfi('testsrc2=s=640x360:r=25:d=2', join(dir, 'detail.mp4'), ['-c:v', 'libx264', '-crf', '12', '-pix_fmt', 'yuv420p'])
  const e = edit([{ asset: { type: 'video', src }, start: 0, length: 2, effect: 'zoomIn' }], { size: { width: 640, height: 360 }, quality: 'high' })
  const [gpuOut, cpuOut] = [join(dir, 'detail-gpu.mp4'), join(dir, 'detail-cpu.mp4')]
  assert.equal([await render(e, gpuOut, true), await render(e, cpuOut, false)], ['yuv420p', 'rgba'])
  const [a, b] = await Promise.all([decodeFrames(gpuOut, 640, 360), decodeFrames(cpuOut, 640, 360)])
  assert.is(a.count, 50)
  assert.is(b.count, 50)
  for (const i of [0, 17, 49]) {
    const x = a.frame(i),
      y = b.frame(i)
    let sum = 0
    for (let k = 0; k < x.length; k++) sum += Math.abs(x[k]! - y[k]!)
    assert.ok(sum / x.length < 1.5, `frame ${i}: mean difference ${(sum / x.length).toFixed(2)}`)
  }
})

test('a size whose U and V planes meet inside one packed texel (324×182: U ends 2 bytes into a texel) matches swscale too', async () => {
  const src = await lavfi('testsrc2=s=324x182:r=25:d=0.4', join(dir, 'small.mp4'), ['-c:v', 'libx264', '-crf', '12', '-pix_fmt', 'yuv420p'])
  const e = edit([{ asset: { type: 'video', src }, start: 0, length: 0.4 }], { size: { width: 324, height: 182 }, quality: 'high' })
  const [gpuOut, cpuOut] = [join(dir, 'small-gpu.mp4'), join(dir, 'small-cpu.mp4')]
  assert.equal([await render(e, gpuOut, true), await render(e, cpuOut, false)], ['yuv420p', 'rgba'])
  const [a, b] = await Promise.all([decodeFrames(gpuOut, 324, 182), decodeFrames(cpuOut, 324, 182)])
  const x = a.frame(5),
    y = b.frame(5)
  let sum = 0
  // The bottom rows come from the V plane's end: a misplaced byte there would shift the whole plane's colours.
  for (let k = 0; k < x.length; k++) sum += Math.abs(x[k]! - y[k]!)
  assert.ok(sum / x.length < 1.5, `mean difference ${(sum / x.length).toFixed(2)}`)
})

test('I420 by default; RGBA with both packings off, for posters and where the planes do not pack', async () => {
  const chart = chartEdit({ format: 'mp4' })
  delete process.env.REELFORGE_GPU_YUV
  const commands = await childCommands(renderer.render(chart, { out: join(dir, 'default.mp4') }))
  // Either way the encoder reads I420: packed by the GPU, or on llvmpipe by the CPU's SIMD (cpu-yuv.test.ts).
  assert.is(argOf(commands.find((c) => c.includes('pipe:0'))!, '-pix_fmt'), 'yuv420p')
  assert.is(await render(chart, join(dir, 'swscale.mp4'), false), 'rgba', 'both packings off: swscale')
  assert.is(await render(chartEdit({ format: 'mp4', poster: { capture: 0.5 } }), join(dir, 'poster.mp4'), true), 'rgba', 'the poster needs RGBA')
  assert.is(await render(chartEdit({ format: 'mp4', size: { width: 1278, height: 720 } }), join(dir, 'odd.mp4'), true), 'rgba', '1278 is not a multiple of 4')
  assert.is(await render(chartEdit({ format: 'mov' }), join(dir, 'chart.mov'), true), 'rgba', 'mov keeps its own conversion (ProRes 4:2:2)')
})

test.run()
