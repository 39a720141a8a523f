import { mkdtempSync, rmdirSync } from 'node:fs'
import { connect, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { removeSocket } from './remove-socket.js'

/** What the socket needs from the code it delivers frames to. */
export interface FrameReader {
  /** The memory the next read fills (the unfilled rest of the frame being assembled). */
  target(): Uint8Array
  /** `bytes` landed in the last target; false pauses reading until `resume()`. */
  received(bytes: number): boolean
  /** ffmpeg closed the connection (end of stream, or it died: its exit status tells which). */
  end(): void
}

/** Longest path a Unix socket address holds (sun_path is 108 bytes on Linux, 104 on macOS). */
const MAX_PATH = 100

/**
 * Raw frames from an ffmpeg child over a Unix socket that ffmpeg listens on (`-listen 1 unix:PATH`), read
 * with Node's `onread`: the kernel copies each read straight into the frame being assembled. A stdout pipe
 * hands over a fresh 64 KB Buffer per read instead — 128 per 1080p frame, ~240 MB/s of short-lived external
 * memory for each playing video, which kept V8's full collector running (~5 s of a 60 s 1080p render's
 * main thread, measured). `create()` returns undefined where no socket can be made; callers use stdout then.
 */
export class FrameSocket {
  private socket: Socket | undefined
  private paused = false
  private stopped = false

  private constructor(
    private readonly dir: string,
    readonly path: string,
  ) {}

  static create(): FrameSocket | undefined {
    if (process.platform === 'win32') return undefined
    let dir: string
    try {
      dir = mkdtempSync(join(tmpdir(), 'reelforge-'))
    } catch {
      return undefined
    }
    const path = join(dir, 'frames.sock')
    if (Buffer.byteLength(path) > MAX_PATH) {
      removeFolder(dir, path)
      return undefined
    }
    return new FrameSocket(dir, path)
  }

  /** ffmpeg's output, after the muxer options: listen on the socket for this one reader. */
  get outputArgs(): string[] {
    return ['-listen', '1', `unix:${this.path}`]
  }

  get connected(): boolean {
    return this.socket !== undefined
  }

  /** Connects once ffmpeg listens (after it has opened its input), retrying while the socket is not there yet. */
  connect(reader: FrameReader): void {
    let delay = 2
    const attempt = () => {
      if (this.stopped) return
      const s = connect({
        path: this.path,
        onread: {
          buffer: () => reader.target(),
          callback: (bytes: number) => {
            const more = reader.received(bytes)
            if (!more) this.paused = true
            return more
          },
        },
      })
      s.once('connect', () => {
        if (this.stopped) return void s.destroy()
        this.socket = s
        removeSocket(this.path) // connected: the name has served its purpose
        s.once('end', () => reader.end())
      })
      s.on('error', (e: NodeJS.ErrnoException) => {
        s.destroy()
        if (this.socket !== s && (e.code === 'ENOENT' || e.code === 'ECONNREFUSED')) {
          setTimeout(attempt, delay)
          delay = Math.min(50, delay * 1.5)
        } else if (this.socket === s) reader.end() // reset by a dying ffmpeg: its exit status reports it
      })
    }
    attempt()
  }

  /** Reads again after `received` returned false. */
  resume(): void {
    if (!this.paused || !this.socket) return
    this.paused = false
    this.socket.resume()
  }

  close(): void {
    this.stopped = true
    this.socket?.destroy()
    removeFolder(this.dir, this.path)
  }
}

/**
 * The socket's folder: the socket by name, then the empty folder. `rmdir` stats nothing (a recursive removal would
 * stat a socket); a socket ffmpeg made after the first unlink (it was being killed) goes on the second try.
 */
function removeFolder(dir: string, socket: string): void {
  for (let attempt = 0; attempt < 2; attempt++) {
    removeSocket(socket)
    try {
      rmdirSync(dir)
      return
    } catch {}
  }
}
