import type { Gpu } from './gpu.js'
import { RGBA_TO_I420_WASM } from './rgba-to-i420.wasm.js'
import { wasmInstance } from './wasm.js'
import type { YuvPacker } from './yuv-pack.js'

/** Converts RGBA frames of one size to I420 (BT.709, TV range) in WebAssembly SIMD (rgba-to-i420.wat). */
export interface I420Converter {
  /** Where to put the RGBA frame (width·height·4 bytes), e.g. for `readPixels`. */
  readonly rgba: Uint8Array
  /** Converts `rgba` into `into` (width·height·3/2 bytes). */
  convert(into: Uint8Array): void
}

/** rgba-to-i420.wat's export: the frame at `src` into the planes at `y`, `u` and `v`. */
export type I420Pack = { pack(src: number, y: number, u: number, v: number, w: number, h: number): void }

/** Whether the WebAssembly kernels' 16-pixel, two-row steps fit a frame: even sizes, 16 or more wide. */
export const i420Fits = (width: number, height: number) => width % 2 === 0 && height % 2 === 0 && width >= 16 && height >= 2

/** Where the Y, U and V planes of a `width`×`height` I420 frame starting at byte `at` lie; `chroma`: a U or V row's bytes. */
export function i420Planes(width: number, height: number, at = 0) {
  const pixels = width * height
  return { y: at, u: at + pixels, v: at + (pixels * 5) / 4, chroma: width / 2, bytes: (pixels * 3) / 2 }
}

/** A converter for `width`×`height`, or undefined where the SIMD steps do not fit (`i420Fits`). */
export function createI420Converter(width: number, height: number): I420Converter | undefined {
  if (!i420Fits(width, height)) return undefined
  const rgbaBytes = width * height * 4
  const out = i420Planes(width, height, rgbaBytes)
  const memory = new WebAssembly.Memory({ initial: Math.ceil((rgbaBytes + out.bytes) / 65536) })
  const { pack } = wasmInstance<I420Pack>(RGBA_TO_I420_WASM, memory)
  const rgba = new Uint8Array(memory.buffer, 0, rgbaBytes)
  const yuv = new Uint8Array(memory.buffer, out.y, out.bytes)
  return {
    rgba,
    convert(into) {
      pack(0, out.y, out.u, out.v, width, height)
      into.set(yuv)
    },
  }
}

/**
 * Frames read back as RGBA and packed to I420 on the CPU, where the GL renderer is the CPU itself (llvmpipe):
 * the same numbers as the GPU pack shader (Y per pixel, U and V from each 2×2 block's mean), at ~1.5 ms a 1080p
 * frame against swscale's ~6.5 ms in the encoder, and the encoder reads 1.5 bytes a pixel instead of 4.
 */
export function createCpuYuvPacker(gpu: Gpu): YuvPacker | undefined {
  const { frame } = gpu
  const converter = createI420Converter(frame.width, frame.height)
  if (!converter) return undefined
  return {
    bytes: (frame.width * frame.height * 3) / 2,
    read(into) {
      // Asked here, not above: a lazy GPU (lazy-gpu.ts) has no context until a frame is drawn with GL.
      const { gl } = gpu
      gl.readPixels(0, 0, frame.width, frame.height, gl.RGBA, gl.UNSIGNED_BYTE, converter.rgba)
      converter.convert(into)
    },
    pack(rgba, into) {
      converter.rgba.set(rgba)
      converter.convert(into)
    },
    dispose() {},
  }
}
