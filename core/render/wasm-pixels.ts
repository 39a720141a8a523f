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
  /**
   * Done with: the memory goes to the next `wasmPixels` of about this size (`view()` throws from now on). Only
   * its owner says so, once nothing draws from it any more.
   */
  release(): void
}

/** Each memory's current buffer, to the pixels at its start: how a view is recognised (`wasmPixelsOf`). */
const owners = new WeakMap<ArrayBufferLike, WasmPixels>()

/**
 * The memory of the last still released, kept for the next of about its size. V8 frees a memory only when it
 * collects its object, which a render's small JS heap seldom asks for: each photo in a slideshow made a new
 * 35–57 MB memory while the last one's waited, and the next photo decoded beside it (measured: ten footage
 * minutes peaked at 616 MB, the render process at 307). One kept, for a few seconds: a slideshow's photos come one
 * after another, and a process that goes on to other work should not hold a photo's memory for its next still.
 */
let kept: { memory: WebAssembly.Memory; bytes: number } | undefined
const KEEP_MS = 3000

/** Room for `size` pixels, zeroed (transparent): in the memory of the still last released if it suits, else a new one. */
export function wasmPixels(size: Size): WasmPixels {
  const bytes = size.width * size.height * 4
  // Its pixels no smaller and at most a quarter larger: a small still never holds a large photo's memory.
  const reused = kept && kept.bytes >= bytes && kept.bytes <= bytes * 1.25 ? kept.memory : undefined
  if (reused) (kept = undefined), new Uint8Array(reused.buffer, 0, bytes).fill(0)
  const memory = reused ?? new WebAssembly.Memory({ initial: Math.max(1, Math.ceil(bytes / 65536)) })
  let released = false
  const pixels: WasmPixels = {
    memory,
    size: { width: size.width, height: size.height },
    view() {
      // The memory may hold another still's pixels by now: drawing them would show the wrong picture without a word.
      if (released) throw new Error('wasm pixels: viewed after release')
      const buffer = memory.buffer
      owners.set(buffer, pixels)
      return new Uint8Array(buffer, 0, bytes)
    },
    release() {
      if (released) return
      released = true
      owners.delete(memory.buffer)
      const mine = (kept = { memory, bytes })
      setTimeout(() => kept === mine && (kept = undefined), KEEP_MS).unref()
    },
  }
  return pixels
}

/** The `WasmPixels` whose `view()` gave `view`, if any (a view of the whole pixels, still attached). */
export function wasmPixelsOf(view: Uint8Array): WasmPixels | undefined {
  const pixels = owners.get(view.buffer)
  return pixels && view.byteOffset === 0 && view.byteLength === pixels.size.width * pixels.size.height * 4 ? pixels : undefined
}
