import type { Size } from '../plugin.js'

/**
 * A still's premultiplied RGBA in a WebAssembly memory of its own, from byte 0. The CPU warp (cpu-warp.ts)
 * scales it where it lies, so a photo a Ken Burns effect moves is held once — not once in JS and again in the
 * warp's memory (32 MB each at the 8 MP a zoom draws a 12 MP photo at). The memory is dropped with the still.
 */
export interface WasmPixels {
  readonly memory: WebAssembly.Memory
  readonly size: Size
  /**
   * The pixels (`width·height·4` bytes, top row first). A fresh view each call: the warp grows the memory for its
   * work area after the pixels, and growing detaches every older view.
   */
  view(): Uint8Array
}

/** Each memory's current buffer, to the pixels at its start: how a view is recognised (`wasmPixelsOf`). */
const owners = new WeakMap<ArrayBufferLike, WasmPixels>()

/** Room for `size` pixels in a new memory, zeroed (transparent). */
export function wasmPixels(size: Size): WasmPixels {
  const bytes = size.width * size.height * 4
  const memory = new WebAssembly.Memory({ initial: Math.max(1, Math.ceil(bytes / 65536)) })
  const pixels: WasmPixels = {
    memory,
    size: { width: size.width, height: size.height },
    view() {
      const buffer = memory.buffer
      owners.set(buffer, pixels)
      return new Uint8Array(buffer, 0, bytes)
    },
  }
  return pixels
}

/** The `WasmPixels` whose `view()` gave `view`, if any (a view of the whole pixels, still attached). */
export function wasmPixelsOf(view: Uint8Array): WasmPixels | undefined {
  const pixels = owners.get(view.buffer)
  return pixels && view.byteOffset === 0 && view.byteLength === pixels.size.width * pixels.size.height * 4 ? pixels : undefined
}
