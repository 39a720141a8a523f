import type { RawVideoDecoder } from '../../../core/index.js'
import type { FrameStore } from './frame-store.js'

type Waiter = { resolve(frame: Uint8Array | null): void; reject(e: unknown): void }

/**
 * One decoder of a scrubbed clip, read from clip frame `base` on: every frame it passes goes into the store, and
 * it keeps reading after the frame asked for — to `last`, while the store has room — so what comes next is
 * ready before the playhead gets there. Asking for a frame it has passed (and the store dropped) or one far
 * ahead is the caller's to decide (`position`): it starts another stream there.
 */
export class ScrubStream {
  private next = 0
  private readonly waiters = new Map<number, Waiter[]>()
  private running = false
  private closed = false
  private decoder: RawVideoDecoder | undefined
  /** Why the decoder failed: the stream is done, and the frames asked of it fail with it. */
  failed: unknown
  /** The source ended at `position`: there is nothing from there on. */
  ended = false

  constructor(
    readonly base: number,
    private readonly open: Promise<RawVideoDecoder>,
    private readonly store: FrameStore,
    /** The clip's last frame: nothing past it is read ahead. */
    private readonly last: number,
    /** `untilKept`: read ahead only up to a frame the store has already (another stream got there first). */
    private readonly o: { untilKept?: boolean } = {},
  ) {
    open.then(
      (d) => (this.closed ? d.close() : (this.decoder = d)),
      (e) => (this.failed = e),
    )
    void this.pump()
  }

  /** The next clip frame this stream will read. */
  get position(): number {
    return this.base + this.next
  }

  /** Frame `slot` (at or past `position`), or null past the source's end. */
  frame(slot: number): Promise<Uint8Array | null> {
    if (this.failed) return Promise.reject(this.failed)
    if (this.ended) return Promise.resolve(null)
    return new Promise((resolve, reject) => {
      const list = this.waiters.get(slot) ?? []
      list.push({ resolve, reject })
      this.waiters.set(slot, list)
      void this.pump()
    })
  }

  close(): void {
    this.closed = true
    this.decoder?.close()
    this.settle((w) => w.resolve(null))
  }

  private async pump(): Promise<void> {
    if (this.running) return
    this.running = true
    try {
      const decoder = await this.open
      while (!this.closed && (this.waiters.size > 0 || this.readsAhead())) {
        const data = await decoder.frame(this.next)
        if (this.closed) return
        if (!data) {
          this.ended = true
          return this.settle((w) => w.resolve(null))
        }
        const slot = this.base + this.next++
        const kept = this.store.put(slot, data)
        const waiting = this.waiters.get(slot)
        this.waiters.delete(slot)
        for (const w of waiting ?? []) w.resolve(kept)
      }
    } catch (e) {
      this.failed = e
      this.settle((w) => w.reject(e))
    } finally {
      this.running = false
    }
  }

  /** Whether to decode the next frame though nobody waits for it yet. */
  private readsAhead(): boolean {
    return this.position <= this.last && this.store.hasRoom() && !(this.o.untilKept && this.store.get(this.position))
  }

  private settle(how: (w: Waiter) => void): void {
    const all = [...this.waiters.values()].flat()
    this.waiters.clear()
    all.forEach(how)
  }
}
