import { spawn, type ChildProcess } from 'node:child_process'
import { lstat, rm } from 'node:fs/promises'
import { RenderError } from '../errors.js'

/** The ffmpeg and ffprobe binaries: `REELFORGE_FFMPEG` / `REELFORGE_FFPROBE`, else from PATH. */
export const ffmpegBin = () => process.env.REELFORGE_FFMPEG || 'ffmpeg'
export const ffprobeBin = () => process.env.REELFORGE_FFPROBE || 'ffprobe'

/** A spawned ffmpeg with the tail of its stderr kept for error messages. */
export interface FfmpegProcess {
  child: ChildProcess
  /** Last ~4 KB of stderr. */
  stderr(): string
  /** Resolves with the exit code (or rejects with E_FFMPEG_MISSING when the binary is absent). */
  exited: Promise<number>
}

/** Spawns ffmpeg (or ffprobe) quietly; killed with SIGKILL when `signal` aborts. */
export function spawnFfmpeg(args: string[], opts: { signal?: AbortSignal; bin?: string; stdin?: boolean; stdout?: boolean } = {}): FfmpegProcess {
  const bin = opts.bin ?? ffmpegBin()
  const child = spawn(bin, args, { stdio: [opts.stdin ? 'pipe' : 'ignore', opts.stdout ? 'pipe' : 'ignore', 'pipe'] })
  let tail = ''
  child.stderr!.on('data', (d: Buffer) => {
    tail = (tail + d.toString('utf8')).slice(-4096)
  })
  const onAbort = () => child.kill('SIGKILL')
  opts.signal?.addEventListener('abort', onAbort, { once: true })
  const exited = new Promise<number>((resolve, reject) => {
    child.once('error', (e: NodeJS.ErrnoException) => {
      opts.signal?.removeEventListener('abort', onAbort)
      reject(e.code === 'ENOENT' ? new RenderError('E_FFMPEG_MISSING', `${bin} is not installed (apt-get install ffmpeg) or not on PATH`) : e)
    })
    child.once('close', (code, sig) => {
      opts.signal?.removeEventListener('abort', onAbort)
      resolve(code ?? (sig ? 128 : 1))
    })
  })
  // Callers may never await `exited` when they fail first; keep the rejection from going unhandled.
  exited.catch(() => {})
  return { child, stderr: () => tail, exited }
}

/** Runs ffmpeg to completion; rejects with `E_OUTPUT_FAILED` (or `code`) and stderr's last lines on failure. */
export async function runFfmpeg(args: string[], opts: { signal?: AbortSignal; bin?: string; code?: 'E_OUTPUT_FAILED' | 'E_ASSET_UNREADABLE'; what?: string } = {}): Promise<string> {
  const p = spawnFfmpeg(args, { signal: opts.signal, bin: opts.bin })
  const code = await p.exited
  if (opts.signal?.aborted) throw new RenderError('E_CANCELLED', 'render cancelled')
  if (code !== 0) throw new RenderError(opts.code ?? 'E_OUTPUT_FAILED', `${opts.what ?? 'ffmpeg'} failed (exit ${code}): ${lastLines(p.stderr())}`)
  return p.stderr()
}

/** The meaningful end of an ffmpeg log: its last three non-empty lines. */
export function lastLines(log: string, n = 3): string {
  return log.trim().split('\n').filter(Boolean).slice(-n).join(' | ') || 'no output'
}

/** Removes a failed render's partial output — only a regular file: `out` may be a device or a FIFO. */
export async function removePartial(path: string): Promise<void> {
  const st = await lstat(path).catch(() => undefined)
  if (st?.isFile()) await rm(path, { force: true })
}
