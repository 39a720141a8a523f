// The painter's fast paths (first layer blended in its shader, NEAREST sampling for texel-exact draws) must
// give the pixels the general path gives: real GL, frames read back.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { Affine } from '../../core/render/affine.js'
import { createGLContext, destroyGLContext } from '../../core/render/gl-context.js'
import { createGpu, type Gpu } from '../../core/render/gpu.js'
import { createPainter, texelExact, type DrawCall } from '../../core/render/painter.js'
import { seededBytes } from '../helpers/seeded.js'

const W = 64,
  H = 32
let gpu: Gpu

/** Premultiplied RGBA noise (rgb ≤ a), reproducible. */
function noise(width: number, height: number, seed: number, opaque = false): Uint8Array {
  const out = new Uint8Array(width * height * 4)
  const next = seededBytes(seed)
  for (let i = 0; i < out.length; i += 4) {
    const a = opaque ? 255 : next()
    for (let c = 0; c < 3; c++) out[i + c] = Math.floor((next() * a) / 255)
    out[i + 3] = a
  }
  return out
}

/** A 16×8 opaque noise texture, a painter on black, and a frame to read into. */
function strip(seed: number) {
  const src = noise(16, 8, seed, true)
  const tex = gpu.texture(src, 16, 8)
  const p = createPainter(gpu, [0, 0, 0, 1])
  return { src, tex, p, out: new Uint8Array(W * H * 4), dispose: () => (p.dispose(), gpu.release(tex)) }
}

const call = (texture: DrawCall['texture'], matrix: Affine, opacity = 1): DrawCall => ({
  texture,
  matrix,
  opacity,
  quad: [0, 0, 1, 1],
  uv: [0, 0, 1, 1],
  filter: -1,
  wipe: [0, 0, 0, 0],
})
const maxDiff = (a: Uint8Array, b: Uint8Array) => a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i]!)), 0)

const painter = suite('painter fast paths (real GL)')
painter.before(async () => {
  gpu = createGpu(await createGLContext(W, H), { width: W, height: H })
})
painter.after(() => destroyGLContext(gpu.gl))

painter('the first layer, blended onto the clear colour in its shader, matches GL blending within 1/255', () => {
  const layer = gpu.texture(noise(W, H, 7), W, H)
  const clearOnly = gpu.texture(new Uint8Array(4), 1, 1) // fully transparent: leaves the frame as cleared
  for (const background of [
    [0, 0, 0, 1],
    [0.2, 0.4, 0.6, 1],
    [0.1, 0.2, 0.05, 0.5],
    [0, 0, 0, 0],
  ] as [number, number, number, number][]) {
    const p = createPainter(gpu, background)
    const fast = new Uint8Array(W * H * 4)
    const general = new Uint8Array(W * H * 4)
    p.begin()
    p.draw(call(layer, [W, 0, 0, H, 0, 0], 0.6))
    p.read(fast)
    p.begin()
    p.draw(call(clearOnly, [W, 0, 0, H, 0, 0])) // the first draw: the layer below now takes GL blending
    p.draw(call(layer, [W, 0, 0, H, 0, 0], 0.6))
    p.read(general)
    assert.ok(maxDiff(fast, general) <= 1, `background ${background}: differs by ${maxDiff(fast, general)}`)
    // And the blend really happened: a pixel is the layer over the background, not either alone.
    const i = (5 * W + 9) * 4
    const src = noise(W, H, 7)
    const expect = (c: number) => Math.round(src[i + c]! * 0.6 + background[c]! * 255 * (1 - (src[i + 3]! * 0.6) / 255))
    for (let c = 0; c < 4; c++) assert.ok(Math.abs(fast[i + c]! - expect(c)) <= 1, `channel ${c}: ${fast[i + c]} vs ${expect(c)}`)
    p.dispose()
  }
  gpu.release(layer)
  gpu.release(clearOnly)
})

painter('a texel-exact draw at a whole-pixel offset reproduces its texture bit for bit', () => {
  const { src, tex, p, out, dispose } = strip(3)
  // Drawn twice, second over the first, so both the on-clear and the blended variant are checked.
  for (const layers of [1, 2]) {
    p.begin()
    for (let l = 0; l < layers; l++) p.draw(call(tex, [16, 0, 0, 8, 5, 3]))
    p.read(out)
    for (let y = 0; y < 8; y++) {
      for (let x = 0; x < 16; x++) {
        const o = ((y + 3) * W + x + 5) * 4
        const s = (y * 16 + x) * 4
        assert.equal([...out.subarray(o, o + 4)], [...src.subarray(s, s + 4)], `${layers} layer(s), texel ${x},${y}`)
      }
    }
  }
  dispose()
})

painter('a half-pixel offset is still filtered (each pixel the mean of two texels)', () => {
  const { src, tex, p, out, dispose } = strip(11)
  p.begin()
  p.draw(call(tex, [16, 0, 0, 8, 5.5, 3]))
  p.read(out)
  for (let x = 1; x < 15; x++) {
    const o = ((4 + 3) * W + x + 5) * 4 // texture row 4 lands on frame row 7
    const left = src[(4 * 16 + x - 1) * 4]!,
      right = src[(4 * 16 + x) * 4]!
    assert.ok(Math.abs(out[o]! - (left + right) / 2) <= 1, `pixel ${x + 5}: ${out[o]} vs the mean of ${left} and ${right}`)
  }
  dispose()
})

painter('texelExact: only axis-aligned, one texel per pixel, whole-texel offsets', () => {
  const texture = { handle: null as unknown as WebGLTexture, width: 100, height: 50 }
  const at = (matrix: Affine, uv: [number, number, number, number] = [0, 0, 1, 1]) => texelExact({ ...call(texture, matrix), uv })
  assert.ok(at([100, 0, 0, 50, 10, 20]))
  assert.ok(at([100, 0, 0, 50, -3, 0]), 'partly off the frame')
  assert.not.ok(at([100, 0, 0, 50, 10.5, 20]), 'half-pixel x')
  assert.not.ok(at([100, 0, 0, 50, 10, 20.25]), 'quarter-pixel y')
  assert.not.ok(at([200, 0, 0, 100, 0, 0]), 'scaled up')
  assert.not.ok(at([100, 1, 0, 50, 0, 0]), 'rotated')
  assert.not.ok(at([-100, 0, 0, 50, 100, 0]), 'mirrored')
  // A cropped window (uv 0.1..0.6 of 100 texels = 50 texels) drawn 50 px wide, starting at texel 10.
  assert.ok(at([50, 0, 0, 50, 7, 0], [0.1, 0, 0.6, 1]))
  assert.not.ok(at([50, 0, 0, 50, 7, 0], [0.105, 0, 0.605, 1]), 'window starting between texels')
})

painter.run()
