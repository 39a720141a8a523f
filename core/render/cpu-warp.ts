import type { Size } from '../plugin.js'
import type { Affine } from './affine.js'
import { align, type Workspace, workspace } from './warp-workspace.js'
import { wasmPixelsOf } from './wasm-pixels.js'

/** One draw of an opaque texture over the whole frame, as cover.ts finds it. */
export interface WarpCall {
  /** The texture's premultiplied RGBA, top row first, `size` pixels; opaque. */
  pixels: Uint8Array
  /**
   * The same buffer may hold other pixels at the next call (a decoded clip's frames: decoders refill their buffers
   * and a converted frame comes in one): copied every call. Else (a still) copied once per distinct buffer.
   */
  refilled: boolean
  size: Size
  /** The layer's map from its unit square to frame pixels: axis-aligned (`[a, 0, 0, d, e, f]`). */
  matrix: Affine
  /** Texture window the unit square maps to (u0, v0, u1, v1). */
  uv: readonly [number, number, number, number]
  /** 0..1 */
  opacity: number
  /** Premultiplied RGBA 0..1 under the layer (seen through its opacity). */
  background: readonly [number, number, number, number]
}

/**
 * Draws a `WarpCall` into a frame-sized RGBA buffer on the CPU (rgba-warp.wat): the pixel centres and texel
 * centres of GL's LINEAR sampling with CLAMP_TO_EDGE, in 8-bit fixed point — within a level of what llvmpipe
 * draws, at a third of its cost. Pixels in a memory of their own (`wasmPixels`: a photo) are warped where they
 * lie, the work area laid after them; others are copied into the warp's memory, a still's once per distinct
 * buffer (its pixels stay the same for its whole clip), a clip's frame every call.
 */
export function createCpuWarp(frame: Size) {
  const { width, height } = frame
  const own = workspace(frame, new WebAssembly.Memory({ initial: 1 }), 0)
  // Keyed weakly: a photo's memory, and the work area in it (~3 MB at 1080p, 8 MB more once titles over it ask
  // for RGBA), go when the photo does. A memory handed to the next still (wasm-pixels.ts: no larger pixels) keeps
  // its work area, after the pixels it was laid out for.
  const borrowed = new WeakMap<WebAssembly.Memory, Workspace>()
  const prepared = (c: WarpCall) => {
    // A view of a memory that grew since it was taken is empty: warping the texture area left from before would
    // draw another picture without a word.
    if (c.pixels.byteLength !== c.size.width * c.size.height * 4) throw new Error('cpu warp: the pixels are not the texture size (a stale view?)')
    const pixels = wasmPixelsOf(c.pixels)
    let ws = pixels ? borrowed.get(pixels.memory) : own
    if (!ws) borrowed.set(pixels!.memory, (ws = workspace(frame, pixels!.memory, align(c.pixels.byteLength), 0)))
    ws.prepare(c)
    return ws
  }
  return {
    /** Draws `c` and returns the frame (valid until the next call). */
    draw(c: WarpCall): Uint8Array {
      const ws = prepared(c)
      ws.warp(0, height, ws.area.rgba)
      return ws.bytes(ws.area.rgba, width * height * 4)
    },
    /**
     * Draws `c` as I420 into `into` (BT.709 TV range, rgba-to-i420.wat): the same bytes as `draw` then packing,
     * two rows at a time (even frame sizes, at least 16 wide, as the packer's).
     */
    drawI420(c: WarpCall, into: Uint8Array): void {
      const ws = prepared(c)
      const { out, twoRows } = ws.area
      for (let y = 0; y < height; y += 2) {
        const c = (y / 2) * out.chroma
        ws.warp(y, 2, twoRows)
        ws.pack(twoRows, out.y + y * width, out.u + c, out.v + c, width, 2)
      }
      into.set(ws.bytes(out.y, out.bytes))
    },
  }
}
