import type { Size } from '../plugin.js'
import type { Affine } from './affine.js'
import { i420Planes, type I420Pack } from './cpu-yuv.js'
import { RGBA_TO_I420_WASM } from './rgba-to-i420.wasm.js'
import { RGBA_WARP_WASM } from './rgba-warp.wasm.js'
import { wasmInstance } from './wasm.js'

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
 * draws, at a third of its cost. A still's texture is copied into WebAssembly memory once per distinct buffer
 * (its pixels stay the same for its whole clip), a clip's frame every call.
 */
export function createCpuWarp(frame: Size) {
  const { width, height } = frame
  const pairs = width / 2
  // Layout: constants (32 B), column offsets (8 B a pair), weights (16 B a pair), rows (12 B a row), the frame,
  // its I420, two rows warped at a time, the texture.
  const colsAt = 32
  const wtsAt = colsAt + pairs * 8
  const rowsAt = wtsAt + pairs * 16
  const frameAt = align(rowsAt + height * 12)
  const out = i420Planes(width, height, align(frameAt + width * height * 4))
  const twoRowsAt = align(out.y + out.bytes)
  const textureAt = align(twoRowsAt + width * 8)
  const memory = new WebAssembly.Memory({ initial: Math.ceil(textureAt / 65536) + 1 })
  const { warp } = wasmInstance<{ warp(src: number, dst: number, w: number, h: number, cols: number, wts: number, rows: number, k: number): void }>(
    RGBA_WARP_WASM,
    memory,
  )
  // The packer on the same memory: a frame warped two rows at a time is packed from where the rows were warped
  // (in the cache), not written out whole and read back.
  const { pack } = wasmInstance<I420Pack>(RGBA_TO_I420_WASM, memory)
  let loaded: Uint8Array | undefined
  let heap = memory.buffer
  let i32 = new Int32Array(heap)
  let u16 = new Uint16Array(heap)
  /** The texture in place and the tables for `c` laid out. */
  const prepare = (c: WarpCall) => {
    const bytes = c.size.width * c.size.height * 4
    if (memory.buffer.byteLength < textureAt + bytes) memory.grow(Math.ceil((textureAt + bytes - memory.buffer.byteLength) / 65536))
    if (heap !== memory.buffer) (heap = memory.buffer), (i32 = new Int32Array(heap)), (u16 = new Uint16Array(heap))
    if (loaded !== c.pixels || c.refilled) new Uint8Array(heap, textureAt, bytes).set(c.pixels), (loaded = c.pixels)
    const [a, , , d, e, f] = c.matrix
    const { width: tw, height: th } = c.size
    // Texel coordinate of pixel centre x: s = tw·(u0 + (u1 − u0)·(x + ½ − e)/a) − ½; likewise rows.
    const axis = (n: number, texels: number, u0: number, u1: number, scale: number, shift: number, put: (i: number, at: number, w: number) => void) => {
      const step = ((u1 - u0) * texels) / scale
      for (let i = 0; i < n; i++) {
        const s = texels * u0 + step * (i + 0.5 - shift) - 0.5
        // CLAMP_TO_EDGE with the pair of texels always inside: at an edge the weight goes all to one of them.
        const t0 = Math.min(Math.max(Math.floor(s), 0), texels - 2)
        put(i, t0, Math.min(256, Math.max(0, Math.round((s - t0) * 256))))
      }
    }
    axis(width, tw, c.uv[0], c.uv[2], a, e, (x, t0, w) => {
      i32[(colsAt >> 2) + x] = t0 * 4
      u16.fill(w, (wtsAt >> 1) + x * 4, (wtsAt >> 1) + x * 4 + 4)
    })
    axis(height, th, c.uv[1], c.uv[3], d, f, (y, t0, w) => {
      const at = (rowsAt >> 2) + y * 3
      i32[at] = t0 * tw * 4
      i32[at + 1] = (t0 + 1) * tw * 4
      i32[at + 2] = w
    })
    const o = Math.round(Math.min(1, Math.max(0, c.opacity)) * 256)
    for (let ch = 0; ch < 8; ch++) {
      u16[ch] = o
      u16[8 + ch] = Math.round(c.background[ch % 4]! * 255) * (256 - o) + 128
    }
  }
  return {
    /** Draws `c` and returns the frame (valid until the next call). */
    draw(c: WarpCall): Uint8Array {
      prepare(c)
      warp(textureAt, frameAt, width, height, colsAt, wtsAt, rowsAt, 0)
      return new Uint8Array(heap, frameAt, width * height * 4)
    },
    /**
     * Draws `c` as I420 into `into` (BT.709 TV range, rgba-to-i420.wat): the same bytes as `draw` then packing,
     * two rows at a time (even frame sizes, at least 16 wide, as the packer's).
     */
    drawI420(c: WarpCall, into: Uint8Array): void {
      prepare(c)
      for (let y = 0; y < height; y += 2) {
        const c = (y / 2) * out.chroma
        warp(textureAt, twoRowsAt, width, 2, colsAt, wtsAt, rowsAt + y * 12, 0)
        pack(twoRowsAt, out.y + y * width, out.u + c, out.v + c, width, 2)
      }
      into.set(new Uint8Array(heap, out.y, out.bytes))
    },
  }
}

const align = (n: number) => Math.ceil(n / 16) * 16
