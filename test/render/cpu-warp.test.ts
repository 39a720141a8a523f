import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { Affine } from '../../core/render/affine.js'
import { type WarpCall, createCpuWarp } from '../../core/render/cpu-warp.js'
import { createI420Converter } from '../../core/render/cpu-yuv.js'
import { seededBytes } from '../helpers/seeded.js'

// The CPU warp (rgba-warp.wat) against its arithmetic written out pixel by pixel: GL's LINEAR sampling with
// CLAMP_TO_EDGE in 8-bit fixed point — along x in each of two texture rows, rounded, then along y, rounded,
// then opacity over the background. The cases make texture rows shared by output rows, skipped, visited in
// reverse and clamped at the edges — what a kernel reusing a row's x pass between output rows must get right.

const test = suite('the CPU warp, pixel by pixel')

/** What one pixel of the warp must be, from the call alone. */
function expected(c: WarpCall, frame: { width: number; height: number }) {
  const { width: tw, height: th } = c.size
  const [a, , , d, e, f] = c.matrix
  const along = (texels: number, u0: number, u1: number, scale: number, shift: number, i: number) => {
    const s = texels * u0 + (((u1 - u0) * texels) / scale) * (i + 0.5 - shift) - 0.5
    const t0 = Math.min(Math.max(Math.floor(s), 0), texels - 2)
    return [t0, Math.min(256, Math.max(0, Math.round((s - t0) * 256)))] as const
  }
  const o = Math.round(Math.min(1, Math.max(0, c.opacity)) * 256)
  const out = new Uint8Array(frame.width * frame.height * 4)
  for (let y = 0; y < frame.height; y++) {
    const [r, wy] = along(th, c.uv[1], c.uv[3], d, f, y)
    for (let x = 0; x < frame.width; x++) {
      const [t, wx] = along(tw, c.uv[0], c.uv[2], a, e, x)
      for (let ch = 0; ch < 4; ch++) {
        const texel = (row: number, col: number) => c.pixels[(row * tw + col) * 4 + ch]!
        const h = (row: number) => (texel(row, t) * (256 - wx) + texel(row, t + 1) * wx + 128) >> 8
        const v = (h(r) * (256 - wy) + h(r + 1) * wy + 128) >> 8
        out[(y * frame.width + x) * 4 + ch] = (v * o + Math.round(c.background[ch]! * 255) * (256 - o) + 128) >> 8
      }
    }
  }
  return out
}

const random = seededBytes(11)
const texture = (width: number, height: number) => Uint8Array.from({ length: width * height * 4 }, (_, i) => (i % 4 === 3 ? 255 : random()))

// 66 wide: rows end on half a 16-byte step. Each case [texture size, matrix, uv, opacity].
const frame = { width: 66, height: 40 }
const cases = [
  ['magnified (a Ken Burns zoom: texture rows shared by output rows)', [50, 31], [80, 0, 0, 48.5, -7.3, -4.1], [0, 0, 1, 1], 1],
  ['shrunk more than twice (rows skipped)', [301, 187], [70, 0, 0, 41, -2, -0.4], [0, 0, 1, 1], 0.62],
  ['about one texel a pixel, a window of the texture', [90, 60], [66.4, 0, 0, 40.3, 0.2, -0.15], [0.1, 0.2, 0.85, 0.9], 1],
  ['flipped upside down and mirrored (rows visited in reverse)', [40, 25], [-70, 0, 0, -44, 68, 42], [0, 0, 1, 1], 0.37],
  ['past every edge (clamped: the same rows many times)', [20, 12], [30, 0, 0, 18, 20, 12], [0, 0, 1, 1], 1],
] as const

for (const [name, [tw, th], matrix, uv, opacity] of cases) {
  test(name, () => {
    const call: WarpCall = {
      pixels: texture(tw, th),
      refilled: false,
      size: { width: tw, height: th },
      matrix: [...matrix],
      uv,
      opacity,
      background: [0.2, 0.4, 0.6, 1],
    }
    const want = expected(call, frame)
    const warp = createCpuWarp(frame)
    // Twice: the second draw of the same still reuses its texture.
    for (const round of [1, 2]) assert.ok(Buffer.from(warp.draw(call)).equals(Buffer.from(want)), `draw, round ${round}`)
    // Two rows at a time into I420: the same frame, packed.
    const i420 = new Uint8Array((frame.width * frame.height * 3) / 2)
    warp.drawI420(call, i420)
    const whole = createI420Converter(frame.width, frame.height)!
    whole.rgba.set(want)
    const packed = new Uint8Array(i420.length)
    whole.convert(packed)
    assert.ok(Buffer.from(i420).equals(Buffer.from(packed)), 'drawI420')
  })
}

test('each draw samples its rows afresh: not from the rows the last draw left, though the row is the same', () => {
  // The second draw starts on the texture rows the first ended on (it is flipped) with another scale along x,
  // after the buffer was refilled (a decoder's next frame): anything kept from the first would be wrong twice.
  const size = { width: 50, height: 31 }
  const pixels = texture(size.width, size.height)
  const call = (matrix: Affine): WarpCall => ({ pixels, refilled: true, size, matrix, uv: [0, 0, 1, 1], opacity: 1, background: [0, 0, 0, 1] })
  const warp = createCpuWarp(frame)
  warp.draw(call([80, 0, 0, 48.5, -7.3, -4.1]))
  for (let i = 0; i < pixels.length; i++) if (i % 4 !== 3) pixels[i] = 255 - pixels[i]!
  const flipped = call([-90, 0, 0, -48.5, 75, 44.4])
  assert.ok(Buffer.from(warp.draw(flipped)).equals(Buffer.from(expected(flipped, frame))))
})

test.run()
