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

/** Spawns ffmpeg (or ffprobe) quietly, with `env` (default: this process's); SIGKILL when `signal` aborts. */
export function spawnFfmpeg(
  args: string[],
  opts: { signal?: AbortSignal; bin?: string; stdin?: boolean; stdout?: boolean; env?: NodeJS.ProcessEnv } = {},
): FfmpegProcess {
  const bin = opts.bin ?? ffmpegBin()
  const child = spawn(bin, args, { stdio: [opts.stdin ? 'pipe' : 'ignore', opts.stdout ? 'pipe' : 'ignore', 'pipe'], env: opts.env })
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
export async function runFfmpeg(
  args: string[],
  opts: { signal?: AbortSignal; bin?: string; code?: 'E_OUTPUT_FAILED' | 'E_ASSET_UNREADABLE'; what?: string } = {},
): Promise<string> {
  const p = spawnFfmpeg(args, { signal: opts.signal, bin: opts.bin })
  const code = await p.exited
  if (opts.signal?.aborted) throw new RenderError('E_CANCELLED', 'render cancelled')
  if (code !== 0) throw new RenderError(opts.code ?? 'E_OUTPUT_FAILED', `${opts.what ?? 'ffmpeg'} failed (exit ${code}): ${lastLines(p.stderr())}`)
  return p.stderr()
}

/** ffmpeg's "Last message repeated 2 times": says nothing of the cause. */
const REPEATED = /^\s*Last message repeated \d+ times?\s*$/
/** Causes ffmpeg states in words a user can act on, preferred over the generic lines that follow them ("Error marking filters as finished"). */
const KNOWN_CAUSE =
  /No such file|Permission denied|No space left|Invalid data found|moov atom not found|does not contain any stream|not supported|Unsupported|Decoder \S+ not found|Connection refused|timed out/i
/** Lines that read as the cause of a failure. */
const CAUSE = /error|invalid|fail|cannot|could not|unable|not found|no such|denied|unsupported|corrupt|missing|truncat|no space|killed/i

/** The meaningful end of an ffmpeg log: its last three non-empty lines (repetition notices left out). */
export function lastLines(log: string, n = 3): string {
  return (
    log
      .trim()
      .split('\n')
      .filter((l) => l.trim() && !REPEATED.test(l))
      .slice(-n)
      .join(' | ') || 'no output'
  )
}

/**
 * The line of an ffmpeg log that says why it failed — the last that states a known cause, else the last that
 * reads as an error, without its `[h264 @ 0x…]` prefix — else its last lines. A decoder's log ends in
 * repetition notices and generic follow-ups; the user needs "Invalid data found when processing input", not
 * "Last message repeated 1 times".
 */
export function ffmpegReason(log: string): string {
  const lines = log
    .trim()
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !REPEATED.test(l))
  const cause = lines.findLast((l) => KNOWN_CAUSE.test(l)) ?? lines.findLast((l) => CAUSE.test(l))
  return cause ? cause.replace(/^\[[^\]]*@ 0x[0-9a-f]+\]\s*/i, '') : lastLines(log)
}

/** Removes a failed render's partial output — only a regular file: `out` may be a device or a FIFO. */
export async function removePartial(path: string): Promise<void> {
  const st = await lstat(path).catch(() => undefined)
  if (st?.isFile()) await rm(path, { force: true })
}
