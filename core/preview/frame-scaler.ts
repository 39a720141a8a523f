import { RenderError } from '../errors.js'
import { ffmpegArgs } from '../ffmpeg/args.js'
import { lastLines, spawnFfmpeg, type FfmpegProcess } from '../ffmpeg/run.js'
import { scaleToFilter } from '../ffmpeg/still.js'
import type { Size } from '../plugin.js'

type Waiter = { resolve(rgb: Uint8Array): void; reject(e: unknown): void }

/**
 * One warm ffmpeg scaling a preview session's frames to `output.scaleTo`: drawn RGBA frames piped in, RGB at the
 * picture's size piped out, through the filter and pixel format the `png` output scales with (`scaleToFilter`,
 * `rgb24`) — its pixels, without the process it starts per frame (~90 of its ~140 ms a frame on two cores).
 * One frame at a time; a scaler that failed stays failed (the session starts another).
 */
export class FrameScaler {
  private readonly ff: FfmpegProcess
  private readonly frameBytes: number
  private readonly chunks: Buffer[] = []
  private received = 0
  private waiter: Waiter | undefined
  failed: Error | undefined

  constructor(
    readonly from: Size,
    readonly to: Size,
  ) {
    this.frameBytes = to.width * to.height * 3
    // Each frame must leave as soon as it is scaled: no reading ahead to analyse the input (`-probesize`), and one
    // encoder thread (rawvideo's encoder is frame-threaded: with more, it holds frames back until others arrive).
    const input = ffmpegArgs`-f rawvideo -pix_fmt rgba -s ${from.width}x${from.height} -probesize 32 -i pipe:0`
    const output = ffmpegArgs`-vf ${scaleToFilter(to)} -pix_fmt rgb24 -threads 1 -f rawvideo -flush_packets 1 pipe:1`
    this.ff = spawnFfmpeg(['-hide_banner', '-loglevel', 'error', '-nostdin', ...input, ...output], { stdin: true, stdout: true })
    this.ff.child.stdout!.on('data', (d: Buffer) => this.take(d))
    this.ff.child.stdin!.on('error', () => {})
    this.ff.exited.then(
      (code) => this.fail(`exit ${code}`),
      (e: Error) => this.fail(e.message),
    )
  }

  /** `rgba` (the drawn frame, `from` in size) as RGB at `to`. */
  scale(rgba: Uint8Array): Promise<Uint8Array> {
    if (this.failed) return Promise.reject(this.failed)
    if (this.waiter) return Promise.reject(new Error('FrameScaler: one frame at a time'))
    return new Promise((resolve, reject) => {
      this.waiter = { resolve, reject }
      this.ff.child.stdin!.write(rgba)
    })
  }

  close(): void {
    this.failed ??= new RenderError('E_CANCELLED', 'preview closed')
    this.ff.child.stdin!.end()
    this.ff.child.kill('SIGKILL')
  }

  private take(data: Buffer): void {
    this.chunks.push(data)
    this.received += data.length
    if (this.received < this.frameBytes) return
    const all = Buffer.concat(this.chunks)
    this.chunks.length = 0
    this.received = all.length - this.frameBytes
    if (this.received > 0) this.chunks.push(all.subarray(this.frameBytes))
    const waiter = this.waiter
    this.waiter = undefined
    waiter?.resolve(all.subarray(0, this.frameBytes))
  }

  private fail(why: string): void {
    this.failed ??= new RenderError('E_OUTPUT_FAILED', `the preview's frame scaler stopped (${why}): ${lastLines(this.ff.stderr())}`)
    this.waiter?.reject(this.failed)
    this.waiter = undefined
  }
}
