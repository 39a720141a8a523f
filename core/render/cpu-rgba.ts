import { i420Fits, i420Planes } from './cpu-yuv.js'
import { I420_THROUGH_WASM } from './i420-through.wasm.js'
import { I420_THROUGH_BT601_WASM } from './i420-through-bt601.wasm.js'
import { I420_TO_RGBA_WASM } from './i420-to-rgba.wasm.js'
import { I420_TO_RGBA_BT601_WASM } from './i420-to-rgba-bt601.wasm.js'
import { backgroundTerm, opacity256 } from './warp-workspace.js'
import { wasmInstance } from './wasm.js'

/** i420-to-rgba.wat's export: the planes at `y`, `u` and `v` into the RGBA frame at `dst`. */
type I420Unpack = { unpack(y: number, u: number, v: number, dst: number, w: number, h: number): void }
/** i420-through.wat's export: the planes at `y`, `u` and `v` through RGB into the planes at `dy`, `du` and `dv`, faded
 * over a background where `k` (the blend's constants) is not 0. */
type I420Through = { through(y: number, u: number, v: number, dy: number, du: number, dv: number, w: number, h: number, k: number): void }

/**
 * The matrix a clip's YUV was made with: BT.709, or BT.601 (SD clips, and untagged ones, as swscale reads them).
 * Both unpack from TV range; what goes back to I420 is always the encoder's BT.709.
 */
export type YuvMatrix = 'bt709' | 'bt601'

const KERNELS: Record<YuvMatrix, { unpack: string; through: string }> = {
  bt709: { unpack: I420_TO_RGBA_WASM, through: I420_THROUGH_WASM },
  bt601: { unpack: I420_TO_RGBA_BT601_WASM, through: I420_THROUGH_BT601_WASM },
}

/** Converts I420 frames of one size (TV range, `matrix`) to opaque RGBA in WebAssembly SIMD (i420-to-rgba.wat). */
export interface RgbaConverter {
  /** `i420`'s picture as RGBA, valid until the next call. */
  convert(i420: Uint8Array): Uint8Array
  /**
   * `i420` as drawing it would leave it, valid until the next call: the bytes of converting it to RGBA and packing
   * that (rgba-to-i420.wat), in one pass with no RGBA between (i420-through.wat). What 4:2:0 chroma and camera
   * noise put outside the RGB gamut is clipped there, as by any frame composited in RGB; handed on as decoded
   * instead, such footage encoded 11 % larger files (see benchmarks/README.md, "Footage like users'").
   */
  throughRgba(i420: Uint8Array): Uint8Array
  /**
   * `throughRgba` with the picture at `opacity` (0..1) over `background` (premultiplied RGBA 0..1) between the two:
   * the bytes of converting it, warping it at one texel a pixel with that opacity (cpu-warp.ts) and packing it.
   */
  fadeThroughRgba(i420: Uint8Array, opacity: number, background: readonly number[]): Uint8Array
}

/**
 * A converter for `width`×`height`, or undefined where the SIMD steps do not fit (`i420Fits`).
 * A decoded clip that hands over I420 (plugins/lib/video/decoded-source.ts) converts here the frames it has to draw
 * or blend over: within 0.6 of the exact arithmetic of its matrix (swscale's is up to 3 off).
 */
export function createRgbaConverter(width: number, height: number, matrix: YuvMatrix = 'bt709'): RgbaConverter | undefined {
  if (!i420Fits(width, height)) return undefined
  // Layout: the I420 frame, the RGBA frame, the I420 frame through RGB, the fade's constants.
  const into = i420Planes(width, height)
  const rgbaAt = into.bytes
  const back = i420Planes(width, height, rgbaAt + width * height * 4)
  const k = Math.ceil((back.y + back.bytes) / 16) * 16
  const memory = new WebAssembly.Memory({ initial: Math.ceil((k + 64) / 65536) })
  const { unpack } = wasmInstance<I420Unpack>(KERNELS[matrix].unpack, memory)
  const { through } = wasmInstance<I420Through>(KERNELS[matrix].through, memory)
  const constants = new Uint16Array(memory.buffer, k, 32)
  const yuv = new Uint8Array(memory.buffer, into.y, into.bytes)
  const rgba = new Uint8Array(memory.buffer, rgbaAt, width * height * 4)
  const packed = new Uint8Array(memory.buffer, back.y, back.bytes)
  return {
    convert(i420) {
      yuv.set(i420)
      unpack(into.y, into.u, into.v, rgbaAt, width, height)
      return rgba
    },
    throughRgba(i420) {
      yuv.set(i420)
      through(into.y, into.u, into.v, back.y, back.u, back.v, width, height, 0)
      return packed
    },
    fadeThroughRgba(i420, opacity, background) {
      yuv.set(i420)
      // The warp's numbers: opacity in 256ths, each channel's background term rounded the same way.
      const o = opacity256(opacity)
      constants.fill(o, 0, 8)
      for (let ch = 0; ch < 3; ch++) constants.fill(backgroundTerm(background[ch]!, o), 8 + ch * 8, 16 + ch * 8)
      through(into.y, into.u, into.v, back.y, back.u, back.v, width, height, k)
      return packed
    },
  }
}
