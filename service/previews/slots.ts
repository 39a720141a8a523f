import type { Principal } from '../accounts/keys.js'
import type { Limits } from '../config.js'
import { ServiceError } from '../errors.js'

/** What the slots keep of a session: whose it is, and when it was last used. */
export interface Slot {
  id: string
  owner: Principal
  /** Exchanges running now: a busy session never ends for being idle. */
  busy?: number
  /** When its last exchange ended (ms). */
  idleSince?: number
  timer?: NodeJS.Timeout
}

/**
 * The preview sessions of this server: at most `limits.previews` in all and `limits.previewsPerKey` per API key
 * (a session being opened counts), each ended after `limits.previewIdleSeconds` without a request. A full key
 * or server answers 429 with `Retry-After`: when the first idle session would end by itself.
 */
export class PreviewSlots<E extends Slot> {
  private readonly entries = new Map<string, E>()
  /** Sessions being opened, by key id. */
  private readonly opening = new Map<string, number>()

  constructor(
    private readonly limits: Pick<Limits, 'previews' | 'previewsPerKey' | 'previewIdleSeconds'>,
    private readonly close: (entry: E) => void,
  ) {}

  /** Holds a place for a session `p` opens, or refuses (429); call the answer when it is added or has failed. */
  reserve(p: Principal): () => void {
    const mine = [...this.entries.values()].filter((e) => e.owner.keyId === p.keyId)
    const opening = this.opening.get(p.keyId) ?? 0
    if (mine.length + opening >= this.limits.previewsPerKey)
      this.refuse(mine, `this key has ${this.limits.previewsPerKey} preview sessions open (limits.previewsPerKey); delete one or let it expire`)
    const all = [...this.opening.values()].reduce((a, b) => a + b, 0)
    if (this.entries.size + all >= this.limits.previews)
      this.refuse([...this.entries.values()], `this server has ${this.limits.previews} preview sessions open (limits.previews); retry when one ends`)
    this.opening.set(p.keyId, opening + 1)
    let released = false
    return () => {
      if (released) return
      released = true
      this.opening.set(p.keyId, (this.opening.get(p.keyId) ?? 1) - 1)
    }
  }

  add(entry: E): E {
    this.entries.set(entry.id, entry)
    this.idle(entry)
    return entry
  }

  /** The session `id` of `p`'s account and environment; anyone else's answers as a missing one (404). */
  find(p: Principal, id: string): E {
    const entry = this.entries.get(id)
    if (!entry || entry.owner.accountId !== p.accountId || entry.owner.sandbox !== p.sandbox)
      throw new ServiceError('E_NOT_FOUND', `no preview session ${id} (sessions end after ${this.limits.previewIdleSeconds} s without a request)`)
    return entry
  }

  /** Marks an exchange running; the answer marks it done and starts the idle clock again when none is left. */
  busy(entry: E): () => void {
    entry.busy = (entry.busy ?? 0) + 1
    clearTimeout(entry.timer)
    return () => {
      entry.busy!--
      if (!entry.busy) this.idle(entry)
    }
  }

  async end(entry: E): Promise<void> {
    if (this.entries.get(entry.id) !== entry) return
    this.entries.delete(entry.id)
    clearTimeout(entry.timer)
    this.close(entry)
  }

  async endAll(): Promise<void> {
    for (const entry of [...this.entries.values()]) await this.end(entry)
  }

  private idle(entry: E): void {
    entry.idleSince = Date.now()
    clearTimeout(entry.timer)
    entry.timer = setTimeout(() => void this.end(entry), this.limits.previewIdleSeconds * 1000)
    entry.timer.unref()
  }

  /** 429, retry when the first of `entries` that is idle would end by itself (busy ones: a whole idle period). */
  private refuse(entries: E[], message: string): never {
    const idleMs = this.limits.previewIdleSeconds * 1000
    const ends = entries.map((e) => (e.busy ? idleMs : (e.idleSince ?? Date.now()) + idleMs - Date.now()))
    const retryAfter = Math.max(1, Math.ceil(Math.min(idleMs, ...ends) / 1000))
    throw new ServiceError('E_RATE_LIMITED', message, { retryAfter })
  }
}
