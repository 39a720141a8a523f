import type { Size } from '../plugin.js'
import type { WarpCall } from './cpu-warp.js'
import { i420Planes, type I420Pack } from './cpu-yuv.js'
import { RGBA_TO_I420_WASM } from './rgba-to-i420.wasm.js'
import { RGBA_WARP_WASM } from './rgba-warp.wasm.js'
import { wasmInstance } from './wasm.js'

/**
 * Where the warp's work lies in a memory, from byte `at`: constants (32 B), column offsets (8 B a pair), weights
 * (16 B a pair), rows (12 B a row), an RGBA frame, its I420, two rows warped at a time.
 */
function workArea({ width, height }: Size, at: number) {
  const k = align(at)
  const cols = k + 32
  const wts = cols + (width / 2) * 8
  const rows = wts + (width / 2) * 16
  const rgba = align(rows + height * 12)
  const out = i420Planes(width, height, align(rgba + width * height * 4))
  const twoRows = align(out.y + out.bytes)
  return { k, cols, wts, rows, rgba, out, twoRows, end: align(twoRows + width * 8) }
}

export type Workspace = ReturnType<typeof workspace>

/**
 * The warp and the packer on one memory (a frame warped two rows at a time is packed from where the rows were
 * warped, in the cache), with the work area from `at`. The texture lies at `textureAt` when given (pixels already
 * there), else after the work area, copied in.
 */
export function workspace(frame: Size, memory: WebAssembly.Memory, at: number, textureAt?: number) {
  const { width, height } = frame
  const area = workArea(frame, at)
  const copies = textureAt === undefined
  const texture = textureAt ?? area.end
  fit(memory, area.end)
  const kernels = wasmInstance<{ warp(src: number, dst: number, w: number, h: number, cols: number, wts: number, rows: number, k: number): void }>(
    RGBA_WARP_WASM,
    memory,
  )
  const { pack } = wasmInstance<I420Pack>(RGBA_TO_I420_WASM, memory)
  let loaded: Uint8Array | undefined
  let heap = memory.buffer
  let i32 = new Int32Array(heap)
  let u16 = new Uint16Array(heap)
  return {
    area,
    pack,
    /** Warps `rows` frame rows from `y` into `dst`. */
    warp: (y: number, rows: number, dst: number) => kernels.warp(texture, dst, width, rows, area.cols, area.wts, area.rows + y * 12, area.k),
    bytes: (from: number, length: number) => new Uint8Array(memory.buffer, from, length),
    /** The texture in place and the tables for `c` laid out. */
    prepare(c: WarpCall) {
      if (copies) {
        fit(memory, texture + c.pixels.byteLength)
        if (loaded !== c.pixels || c.refilled) new Uint8Array(memory.buffer, texture, c.pixels.byteLength).set(c.pixels), (loaded = c.pixels)
      }
      if (heap !== memory.buffer) (heap = memory.buffer), (i32 = new Int32Array(heap)), (u16 = new Uint16Array(heap))
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
        i32[(area.cols >> 2) + x] = t0 * 4
        u16.fill(w, (area.wts >> 1) + x * 4, (area.wts >> 1) + x * 4 + 4)
      })
      axis(height, th, c.uv[1], c.uv[3], d, f, (y, t0, w) => {
        const at = (area.rows >> 2) + y * 3
        i32[at] = t0 * tw * 4
        i32[at + 1] = (t0 + 1) * tw * 4
        i32[at + 2] = w
      })
      const o = opacity256(c.opacity)
      for (let ch = 0; ch < 8; ch++) {
        u16[(area.k >> 1) + ch] = o
        u16[(area.k >> 1) + 8 + ch] = backgroundTerm(c.background[ch % 4]!, o)
      }
    },
  }
}

/** The warp's blend of a channel c over the background is (c·o + `backgroundTerm`) >> 8: o, the opacity in 256ths. */
export const opacity256 = (opacity: number) => Math.round(Math.min(1, Math.max(0, opacity)) * 256)

/** A background channel (0..1) × (256 − o), with the blend's rounding half: the constant beside c·o. */
export const backgroundTerm = (channel: number, o: number) => Math.round(channel * 255) * (256 - o) + 128

/** Grows `memory` to hold `bytes` (growing detaches the views of its old buffer). */
function fit(memory: WebAssembly.Memory, bytes: number) {
  if (memory.buffer.byteLength < bytes) memory.grow(Math.ceil((bytes - memory.buffer.byteLength) / 65536))
}

export const align = (n: number) => Math.ceil(n / 16) * 16
