import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'

/** Decoded RGBA frames of a video. */
export interface Frames {
  width: number
  height: number
  count: number
  frame(i: number): Uint8Array
}

/**
 * Decodes every frame of a (short, small) video to RGBA with native ffmpeg. One decoding thread: the suite keeps
 * both cores busy with other files, and threads for a small video cost more than they save (13 % less CPU a decode).
 */
export function decodeFrames(path: string, width: number, height: number): Promise<Frames> {
  return new Promise((resolve, reject) => {
    const child = spawn('ffmpeg', ['-v', 'error', '-threads', '1', '-i', path, '-vsync', '0', '-f', 'rawvideo', '-pix_fmt', 'rgba', '-'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const chunks: Buffer[] = []
    let err = ''
    child.stdout.on('data', (c: Buffer) => chunks.push(c))
    child.stderr.on('data', (c: Buffer) => (err += c))
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`ffmpeg decode failed: ${err}`))
      const all = Buffer.concat(chunks)
      const size = width * height * 4
      resolve({ width, height, count: Math.floor(all.length / size), frame: (i) => all.subarray(i * size, (i + 1) * size) })
    })
  })
}

/** The RGB of one pixel. */
export function pixel(f: Frames, i: number, x: number, y: number): [number, number, number] {
  const d = f.frame(i)
  const o = (Math.round(y) * f.width + Math.round(x)) * 4
  return [d[o]!, d[o + 1]!, d[o + 2]!]
}

/** Mean RGB over a rectangle (inclusive-exclusive). */
export function mean(f: Frames, i: number, x0: number, y0: number, x1: number, y1: number): [number, number, number] {
  const d = f.frame(i)
  let r = 0,
    g = 0,
    b = 0,
    n = 0
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++) {
      const o = (y * f.width + x) * 4
      r += d[o]!
      g += d[o + 1]!
      b += d[o + 2]!
      n++
    }
  return [r / n, g / n, b / n]
}

/** True when two colours differ by at most `tol` per channel (yuv420p + x264 shift colours slightly). */
export function near(a: readonly number[], b: readonly number[], tol = 14): boolean {
  return a.every((v, i) => Math.abs(v - b[i]!) <= tol)
}

/** Whether the mp4's moov atom precedes mdat (`+faststart`). */
export function isFastStart(path: string): boolean {
  const head = readFileSync(path).subarray(0, 1 << 20)
  const moov = head.indexOf('moov')
  const mdat = head.indexOf('mdat')
  return moov >= 0 && (mdat < 0 || moov < mdat)
}

/** Where the pixels matching `test` are: their count and centre (NaN when none match). */
export function locate(f: Frames, i: number, test: (rgb: [number, number, number]) => boolean, box = { x0: 0, y0: 0, x1: f.width, y1: f.height }) {
  const d = f.frame(i)
  let n = 0,
    sx = 0,
    sy = 0,
    minX = Infinity,
    maxX = -Infinity,
    minY = Infinity,
    maxY = -Infinity
  for (let y = box.y0; y < box.y1; y++)
    for (let x = box.x0; x < box.x1; x++) {
      const o = (y * f.width + x) * 4
      if (!test([d[o]!, d[o + 1]!, d[o + 2]!])) continue
      n++
      sx += x
      sy += y
      minX = Math.min(minX, x)
      maxX = Math.max(maxX, x)
      minY = Math.min(minY, y)
      maxY = Math.max(maxY, y)
    }
  return { count: n, x: sx / n, y: sy / n, minX, maxX, minY, maxY }
}

/** Mean absolute difference per channel between two frames (0..255). */
export function frameDiff(f: Frames, a: number, b: number): number {
  const x = f.frame(a),
    y = f.frame(b)
  let sum = 0
  for (let k = 0; k < x.length; k += 4) sum += Math.abs(x[k]! - y[k]!) + Math.abs(x[k + 1]! - y[k + 1]!) + Math.abs(x[k + 2]! - y[k + 2]!)
  return sum / ((x.length / 4) * 3)
}

/** Colour predicates for `locate`. */
export const isRed = ([r, g, b]: [number, number, number]) => r > 150 && g < 90 && b < 90
export const isGreen = ([r, g, b]: [number, number, number]) => g > 150 && r < 90 && b < 90
export const isBlue = ([r, g, b]: [number, number, number]) => b > 150 && r < 90 && g < 90
/** Rec. 601 luma: full resolution in yuv420p video, so edges measured with it are exact to a pixel. */
export const luma = ([r, g, b]: [number, number, number]) => 0.299 * r + 0.587 * g + 0.114 * b
