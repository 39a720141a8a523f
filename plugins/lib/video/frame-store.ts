/**
 * Decoded frames of one clip kept for a preview session, by clip frame index, up to a byte budget. When it is
 * full the frame farthest from the playhead goes first (its buffer takes the new frame: nothing is allocated
 * once the budget is reached) — a user scrubs around where they are, not where they were.
 */
export class FrameStore {
  private readonly frames = new Map<number, Uint8Array>()
  /** The frame the playhead is on: eviction keeps what is near it. */
  playhead = 0

  constructor(
    private readonly frameBytes: number,
    private readonly budgetBytes: number,
  ) {}

  get(slot: number): Uint8Array | undefined {
    return this.frames.get(slot)
  }

  /** Room for another frame without dropping one (always room for two: the one shown and the next). */
  hasRoom(): boolean {
    return (this.frames.size + 1) * this.frameBytes <= Math.max(this.budgetBytes, 2 * this.frameBytes)
  }

  /** Keeps a copy of `data` as frame `slot` and returns the copy. */
  put(slot: number, data: Uint8Array): Uint8Array {
    const kept = this.frames.get(slot)
    if (kept) return kept
    const buffer = this.hasRoom() ? new Uint8Array(this.frameBytes) : this.evict()
    buffer.set(data)
    this.frames.set(slot, buffer)
    return buffer
  }

  clear(): void {
    this.frames.clear()
  }

  get size(): number {
    return this.frames.size
  }

  /** Drops the frame farthest from the playhead and hands back its buffer. */
  private evict(): Uint8Array {
    let far = -1
    let distance = -1
    for (const slot of this.frames.keys()) {
      const d = Math.abs(slot - this.playhead)
      if (d > distance) (far = slot), (distance = d)
    }
    const buffer = this.frames.get(far)!
    this.frames.delete(far)
    return buffer
  }
}
