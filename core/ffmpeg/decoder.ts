import { toneMapFilters } from './tone-map.js'
import { RenderError } from '../errors.js'
import type { FrameOrigin } from './frame-times.js'
import { FrameSocket } from './frame-socket.js'
import { ffmpegReason, spawnFfmpeg, type FfmpegProcess } from './run.js'

export interface DecoderOptions {
  path: string
  /** Seconds into the source where frame 0 is taken (input-side seek: fast and frame-accurate). */
  trim: number
  /** Playback rate; frame k shows source time `trim + k·speed/fps`. */
  speed: number
  /** Output frame rate. */
  fps: number
  /** Size ffmpeg scales to (the size the plan draws the clip at). */
  width: number
  height: number
  /**
   * Start at the clip's frame `skip` instead of 0 (a render that begins mid-clip: a frame preview, a piece of a
   * split render, a scrubbed preview). With `origin` (frameOrigin), frame k of this decoder is exactly frame
   * skip + k of one started at `trim`, whatever the source's rate; without, ffmpeg starts at that frame's time
   * and may show a neighbouring source frame where the rates differ.
   */
  skip?: number
  origin?: FrameOrigin
  /** Frames wanted at most; without it ffmpeg runs until the source ends or `close()` (it blocks on the pipe once `readAhead` frames wait). */
  frames?: number
  /** Extra input options (e.g. a decoder that keeps alpha). */
  inputArgs?: string[]
  /** Extra filters after scaling (e.g. `premultiply`). */
  filters?: string[]
  /** The source's transfer (ffprobe `color_transfer`): HLG and PQ sources are tone-mapped to SDR (tone-map.ts). */
  transfer?: string
  /** The source's primaries (ffprobe `color_primaries`): BT.2020 SDR sources are moved to BT.709's (tone-map.ts). */
  primaries?: string
  /** The source's matrix (ffprobe `color_space`), which zscale needs when a step above applies. */
  matrix?: string
  /**
   * `i420`: frames as I420 (Y, U, V planes; 1.5 bytes a pixel) instead of RGBA — a BT.709 TV-range 4:2:0 source
   * drawn at its decoded size, converted in the render process (plugins/lib/video/decoded-source.ts).
   */
  format?: 'rgba' | 'i420'
  /** Frames decoded ahead of the compositor. */
  readAhead?: number
  /** Describes the source in error messages (the clip path). */
  label: string
}

/**
 * Streams a video source as raw RGBA (or I420) frames at the output rate from a native ffmpeg child: ffmpeg seeks,
 * retimes (`setpts`), resamples to the output fps and scales, so the compositor only uploads. Frames arrive
 * over a Unix socket straight into reused frame buffers (see FrameSocket), else over stdout. Read-ahead is
 * bounded: when `readAhead` frames wait, reading pauses and ffmpeg blocks.
 */
export class RawVideoDecoder {
  private ff!: FfmpegProcess
  private socket: FrameSocket | undefined
  private readonly frameBytes: number
  private readonly queue: Uint8Array[] = []
  private readonly spare: Uint8Array[] = []
  private made = 0
  private partial: Uint8Array | undefined
  private filled = 0
  /** Index of queue[0]. */
  private head = 0
  private current: { index: number; data: Uint8Array } | undefined
  private ended = false
  /** The frame stream reached its end (socket transport; stdout's end comes with the exit status). */
  private streamEnded = false
  /** ffmpeg's exit status once it has exited. */
  private exitedCode: number | undefined
  private failure: Error | undefined
  private waiter: (() => void) | undefined
  private readonly readAhead: number
  private closed = false

  constructor(private readonly opts: DecoderOptions) {
    this.frameBytes = opts.format === 'i420' ? (opts.width * opts.height * 3) / 2 : opts.width * opts.height * 4
    this.readAhead = opts.readAhead ?? 3
    this.launch(FrameSocket.create())
  }

  private launch(socket: FrameSocket | undefined) {
    const opts = this.opts
    const { seek, timing } = startAt(opts)
    const pixFmt = opts.format === 'i420' ? 'yuv420p' : 'rgba'
    const filters = [
      ...timing,
      `scale=${opts.width}:${opts.height}:flags=bicubic`,
      // After scaling: an HDR clip drawn small is tone-mapped at its drawn size (the step is costly per pixel).
      ...toneMapFilters(opts.transfer, opts.primaries, opts.matrix),
      `format=${pixFmt}`,
      ...(opts.filters ?? []),
    ]
    const args = [
      '-hide_banner',
      '-loglevel',
      'error',
      '-nostdin',
      ...seek,
      ...(opts.inputArgs ?? []),
      '-i',
      opts.path,
      '-an',
      '-sn',
      '-dn',
      '-vf',
      filters.join(','),
      ...(opts.frames ? ['-frames:v', String(Math.max(1, opts.frames))] : []),
      '-f',
      'rawvideo',
      '-pix_fmt',
      pixFmt,
      ...(socket ? socket.outputArgs : ['pipe:1']),
    ]
    const ff = (this.ff = spawnFfmpeg(args, { stdout: !socket }))
    this.socket = socket
    if (socket) {
      socket.connect({
        target: () => this.target(),
        received: (bytes) => this.received(bytes),
        end: () => {
          this.streamEnded = true
          this.settle()
        },
      })
    } else ff.child.stdout!.on('data', (chunk: Buffer) => this.take(chunk))
    ff.exited.then(
      (code) => {
        if (ff !== this.ff) return
        if (socket && !socket.connected) socket.close() // stop trying to connect
        if (this.closed) return void ((this.ended = true), this.wake())
        // An ffmpeg built without the unix protocol: fall back to stdout.
        if (socket && !socket.connected && /Protocol not found|unix/i.test(ff.stderr())) return this.launch(undefined)
        if (code !== 0)
          this.failure = new RenderError('E_ASSET_UNREADABLE', `${opts.label}: cannot decode ${opts.path}: ${decoderDeath(ff, code)}`, { path: opts.label })
        // Frames may still wait in the socket after the exit: the end is the stream's end.
        if (!socket?.connected || code !== 0) this.streamEnded = true
        this.exitedCode = code
        this.settle()
      },
      (e: Error) => {
        this.failure = e
        this.streamEnded = true
        this.exitedCode = -1
        this.settle()
      },
    )
  }

  /** Ended once both the frames and the exit status are in. */
  private settle() {
    if (this.streamEnded && this.exitedCode !== undefined) this.ended = true
    this.wake()
  }

  /** The unfilled rest of the frame being assembled. */
  private target(): Uint8Array {
    return (this.partial ??= this.buffer()).subarray(this.filled)
  }

  /** `bytes` more of the frame being assembled arrived (both transports). False: read-ahead is full. */
  private received(bytes: number): boolean {
    this.filled += bytes
    if (this.filled === this.frameBytes) {
      this.queue.push(this.partial!)
      this.partial = undefined
      this.filled = 0
      this.wake()
    }
    return this.queue.length < this.readAhead
  }

  /**
   * HOT: frame `k` (clip-local index, never decreasing between calls), or null once the source has ended.
   * Returns synchronously when the frame is already decoded.
   */
  frame(k: number): Uint8Array | null | Promise<Uint8Array | null> {
    // The same or an earlier index (rounding repeats a frame): keep showing the current one.
    if (this.current && k <= this.current.index) return this.current.data
    const ready = this.advance(k)
    if (ready !== undefined) return ready
    return this.wait(k)
  }

  private async wait(k: number): Promise<Uint8Array | null> {
    for (;;) {
      await new Promise<void>((r) => (this.waiter = r))
      const ready = this.advance(k)
      if (ready !== undefined) return ready
    }
  }

  /** Drops frames before k; returns frame k, null at the end, or undefined when it is not decoded yet. */
  private advance(k: number): Uint8Array | null | undefined {
    if (this.failure) throw this.failure
    while (this.queue.length && this.head < k) this.recycle(this.queue.shift()!), this.head++
    if (this.queue.length && this.head === k) {
      if (this.current) this.recycle(this.current.data)
      this.current = { index: k, data: this.queue.shift()! }
      this.head++
      this.resume()
      return this.current.data
    }
    this.resume()
    return this.ended ? null : undefined
  }

  /** Stdout transport: copies a chunk into the frames it completes. */
  private take(chunk: Buffer) {
    let more = true
    for (let offset = 0; offset < chunk.length; ) {
      const target = this.target()
      const n = Math.min(target.length, chunk.length - offset)
      target.set(chunk.subarray(offset, offset + n))
      offset += n
      more = this.received(n)
    }
    if (!more) this.ff.child.stdout!.pause()
  }

  /** Frame buffers made so far: at most the read-ahead + the frame shown + the one filling. */
  get buffersMade(): number {
    return this.made
  }

  private buffer(): Uint8Array {
    const spare = this.spare.pop()
    if (spare) return spare
    this.made++
    return new Uint8Array(this.frameBytes)
  }

  private recycle(buffer: Uint8Array) {
    // Every buffer is kept: a new one is made only when none is spare, so there are never more than the
    // read-ahead + the frame shown + the one filling, and a steady stream allocates nothing (a fresh 8 MB
    // frame is external memory that V8 answers with a full collection).
    this.spare.push(buffer)
  }

  private resume() {
    if (this.queue.length >= this.readAhead || this.ended) return
    if (this.socket) this.socket.resume()
    else this.ff.child.stdout!.resume()
  }

  private wake() {
    const w = this.waiter
    this.waiter = undefined
    w?.()
  }

  close() {
    this.closed = true
    this.ff.child.kill('SIGKILL')
    this.socket?.close()
    this.queue.length = 0
    this.spare.length = 0
    this.current = undefined
  }
}

/**
 * Where ffmpeg starts reading and how it lays the frames on the output rate. From `trim`: the first frame at or
 * after it is frame 0 and `fps` picks, for frame k, the source frame nearest its time. Mid-clip with an origin:
 * ffmpeg seeks a little before frame `skip` (`-copyts` keeps the source's own timestamps) and the timestamps are
 * measured from the origin as above, so `fps` picks exactly the frames it would from `trim` (the rounding is the
 * same arithmetic on the same integers); `fps` counts its frames from the origin and `trim` drops those before
 * `skip` — less a whole number of seconds, taken off in whole ticks, so at most a second of them is counted.
 */
function startAt(o: DecoderOptions): { seek: string[]; timing: string[] } {
  const speed = o.speed.toFixed(6)
  const skip = o.skip ?? 0
  if (skip > 0 && o.origin) {
    const [num, den] = o.origin.timeBase
    // Whole seconds of output time that are also whole ticks (a time base of 1001/30000 needs multiples of 1001 s).
    const seconds = Number.isInteger(o.fps) ? Math.floor(skip / o.fps / num) * num : 0
    const margin = Math.max(0.1, 2 * o.origin.gap) + o.speed / o.fps
    const from = Math.max(o.trim, o.trim + (skip * o.speed) / o.fps - margin)
    return {
      seek: [...(from > 0 ? ['-ss', from.toFixed(6)] : []), '-copyts'],
      timing: [`setpts=(PTS-${o.origin.pts})/${speed}-${(seconds * den) / num}`, `fps=${o.fps}:start_time=0`, `trim=start_frame=${skip - seconds * o.fps}`],
    }
  }
  const from = o.trim + (skip / o.fps) * o.speed
  return { seek: from > 0 ? ['-ss', from.toFixed(6)] : [], timing: [`setpts=(PTS-STARTPTS)/${speed}`, `fps=${o.fps}`] }
}

/** How a decoder's ffmpeg ended, in words: killed or its exit status, and the log line that says why. */
function decoderDeath(ff: FfmpegProcess, code: number): string {
  const how = ff.child.signalCode ? `was killed (${ff.child.signalCode})` : `exited with status ${code}`
  const log = ff.stderr().trim()
  return `the video decoder (ffmpeg) ${how}${log ? `: ${ffmpegReason(log)}` : ''}`
}
