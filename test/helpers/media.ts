import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createCanvas } from '@napi-rs/canvas'
import { ffmpegArgs, runFfmpeg } from '../../core/index.js'

const dirs: string[] = []
process.once('exit', () => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

/** A temp folder removed at process exit. */
export function tempDir(prefix = 'reelforge-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  dirs.push(dir)
  return dir
}

/** Writes a PNG of one colour (CSS colour string), optionally with a differently coloured top-left marker. */
export async function solidPng(path: string, width: number, height: number, color: string, marker?: { color: string; size: number }): Promise<string> {
  const canvas = createCanvas(width, height)
  const g = canvas.getContext('2d')
  g.fillStyle = color
  g.fillRect(0, 0, width, height)
  if (marker) {
    g.fillStyle = marker.color
    g.fillRect(0, 0, marker.size, marker.size)
  }
  writeFileSync(path, await canvas.encode('png'))
  return path
}

/** Runs an ffmpeg lavfi source into a file: `lavfi('testsrc2=s=320x240:d=2', out, ['-c:v','libx264'])`. */
export async function lavfi(source: string, out: string, extra: string[] = []): Promise<string> {
  await runFfmpeg(['-v', 'error', '-y', '-f', 'lavfi', '-i', source, ...extra, out])
  return out
}

/**
 * A video whose frame N shows N in binary: `bits` vertical bars, bar i white when bit i of N is set.
 * Bars survive lossy encoding, so decoded output frames tell exactly which source frame they show.
 */
export async function indexedVideo(out: string, opts: { fps: number; seconds: number; bits?: number; barWidth?: number; audio?: boolean }): Promise<string> {
  const bits = opts.bits ?? 8,
    bar = opts.barWidth ?? 20
  const lum = `if(mod(floor(N/pow(2,floor(X/${bar}))),2),235,16)`
  await runFfmpeg(ffmpegArgs`-v error -y -f lavfi -i ${`nullsrc=s=${bits * bar}x${bar * 2}:r=${opts.fps}:d=${opts.seconds},format=yuv420p,geq=lum='${lum}':cb=128:cr=128`}
    -c:v libx264 -preset ultrafast -crf 10 -g 50 -pix_fmt yuv420p ${out}`)
  return out
}

/** Reads the binary index back from a decoded frame laid out like `indexedVideo` (left edge at x0, row y). */
export function readIndex(frame: { width: number; frame(i: number): Uint8Array }, i: number, x0: number, y: number, bar: number, bits = 8): number {
  const d = frame.frame(i)
  let n = 0
  for (let b = 0; b < bits; b++) {
    const x = Math.round(x0 + b * bar + bar / 2)
    if (d[(y * frame.width + x) * 4]! > 128) n |= 1 << b
  }
  return n
}

/** Decodes the audio of a file to mono 48 kHz float samples. */
export async function decodeAudio(path: string): Promise<Float32Array> {
  const { spawn } = await import('node:child_process')
  return new Promise((resolve, reject) => {
    const child = spawn('ffmpeg', ['-v', 'error', '-i', path, '-vn', '-ac', '1', '-ar', '48000', '-f', 'f32le', '-'], { stdio: ['ignore', 'pipe', 'pipe'] })
    const chunks: Buffer[] = []
    let err = ''
    child.stdout.on('data', (c: Buffer) => chunks.push(c))
    child.stderr.on('data', (c: Buffer) => (err += c))
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(err))
      const b = Buffer.concat(chunks)
      resolve(new Float32Array(b.buffer, b.byteOffset, Math.floor(b.length / 4)))
    })
  })
}

/** RMS level in dBFS of samples[from, to) seconds (48 kHz). */
export function rmsDb(samples: Float32Array, from: number, to: number): number {
  const a = Math.floor(from * 48000),
    b = Math.min(samples.length, Math.floor(to * 48000))
  let sum = 0
  for (let i = a; i < b; i++) sum += samples[i]! * samples[i]!
  return 10 * Math.log10(sum / Math.max(1, b - a) + 1e-12)
}

/** Writes a PNG drawn by `draw` on a 2D canvas. */
export async function drawnPng(
  path: string,
  width: number,
  height: number,
  draw: (g: ReturnType<ReturnType<typeof createCanvas>['getContext']>) => void,
): Promise<string> {
  const canvas = createCanvas(width, height)
  draw(canvas.getContext('2d'))
  writeFileSync(path, await canvas.encode('png'))
  return path
}

/**
 * An mp4 whose header is intact (ffprobe reads it: duration, size, codec) but whose frames are garbage from
 * `fromFraction` of the file on: it plans, then its decoder dies mid-render with "Invalid data found".
 */
export async function garbledVideo(out: string, seconds = 4, fromFraction = 1 / 3): Promise<string> {
  await lavfi(`testsrc2=size=160x90:rate=12:duration=${seconds}`, out, ['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-movflags', '+faststart'])
  const bytes = readFileSync(out)
  for (let i = Math.floor(bytes.length * fromFraction); i < bytes.length - 100; i++) bytes[i] = (i * 7) & 255
  writeFileSync(out, bytes)
  return out
}

/** `count` one-second 160×90 clips as cameras make them: a picture and a tone of their own (220 Hz, 440 Hz, …). */
export async function toneClips(dir: string, count: number): Promise<string[]> {
  const clips: string[] = []
  for (let i = 0; i < count; i++)
    clips.push(
      await lavfi('testsrc2=size=160x90:rate=25:duration=1', join(dir, `clip${i}.mp4`), [
        ...['-f', 'lavfi', '-i', `sine=frequency=${220 * (i + 1)}:duration=1:sample_rate=48000`],
        ...['-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-shortest'],
      ]),
    )
  return clips
}

/**
 * Runs `work` with REELFORGE_FFMPEG set to a shell script in `dir` whose `body` runs before the real ffmpeg (`$@`
 * holds ffmpeg's arguments): an ffmpeg that logs, waits or fails as a trimmed build or a full disk would.
 */
export async function withFfmpeg<T>(dir: string, name: string, body: string, work: () => Promise<T>): Promise<T> {
  const wrapper = join(dir, name)
  writeFileSync(wrapper, `#!/bin/sh\n${body}\nexec ffmpeg "$@"\n`)
  chmodSync(wrapper, 0o755)
  const before = process.env.REELFORGE_FFMPEG
  process.env.REELFORGE_FFMPEG = wrapper
  return work().finally(() => {
    if (before === undefined) delete process.env.REELFORGE_FFMPEG
    else process.env.REELFORGE_FFMPEG = before
  })
}
