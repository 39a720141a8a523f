/**
 * A fixed set of frame buffers shared by the compositor and the sink. A buffer is busy while any write
 * of it is pending; `acquire` waits for an idle one. The same buffer may be written several times in a
 * row (a repeated static frame) — each write holds it. Memory stays at `count` frames whatever the length.
 */
export class FramePool {
  private readonly buffers: Uint8Array[]
  private readonly pending: number[]
  private waiters: Array<() => void> = []
  private inflight = 0

  constructor(bytes: number, count: number) {
    this.buffers = Array.from({ length: count }, () => new Uint8Array(bytes))
    this.pending = new Array(count).fill(0)
  }

  /** An idle buffer (no write of it pending). */
  async acquire(): Promise<Uint8Array> {
    for (;;) {
      const i = this.pending.indexOf(0)
      if (i >= 0) return this.buffers[i]!
      await new Promise<void>((r) => this.waiters.push(r))
    }
  }

  /** Waits until fewer than `max` writes are in flight (bounds repeated writes of one buffer too). */
  async room(max: number): Promise<void> {
    while (this.inflight >= max) await new Promise<void>((r) => this.waiters.push(r))
  }

  /** Tracks one write of `buffer`; the buffer is busy until `done` settles. */
  track(buffer: Uint8Array, done: Promise<void>): Promise<void> {
    const i = this.buffers.indexOf(buffer)
    this.pending[i]!++
    this.inflight++
    const release = () => {
      this.pending[i]!--
      this.inflight--
      const waiters = this.waiters
      this.waiters = []
      for (const w of waiters) w()
    }
    return done.then(release, (e) => {
      release()
      throw e
    })
  }

  /** Resolves once every tracked write has settled. */
  async drain(): Promise<void> {
    while (this.inflight > 0) await new Promise<void>((r) => this.waiters.push(r))
  }
}
