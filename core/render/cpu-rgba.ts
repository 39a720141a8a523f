import { I420_TO_RGBA_WASM } from './i420-to-rgba.wasm.js'
import { wasmInstance } from './wasm.js'

/** Converts I420 frames of one size (BT.709, TV range) to opaque RGBA in WebAssembly SIMD (i420-to-rgba.wat). */
export interface RgbaConverter {
  /** `i420`'s picture as RGBA, valid until the next call. */
  convert(i420: Uint8Array): Uint8Array
}

/**
 * A converter for `width`×`height`, or undefined where the SIMD steps do not fit (odd sizes, narrower than 16).
 * A decoded clip that hands its I420 frames on unchanged where it covers the frame (core/render/cover-frames.ts)
 * converts here the frames it has to draw or blend over: within a level of the exact BT.709 arithmetic.
 */
export function createRgbaConverter(width: number, height: number): RgbaConverter | undefined {
  if (width % 2 !== 0 || height % 2 !== 0 || width < 16 || height < 2) return undefined
  const yuvBytes = (width * height * 3) / 2
  const rgbaBytes = width * height * 4
  const memory = new WebAssembly.Memory({ initial: Math.ceil((yuvBytes + rgbaBytes) / 65536) })
  const { unpack } = wasmInstance<{ unpack(src: number, dst: number, w: number, h: number): void }>(I420_TO_RGBA_WASM, memory)
  const yuv = new Uint8Array(memory.buffer, 0, yuvBytes)
  const rgba = new Uint8Array(memory.buffer, yuvBytes, rgbaBytes)
  return {
    convert(i420) {
      yuv.set(i420)
      unpack(0, yuvBytes, width, height)
      return rgba
    },
  }
}
