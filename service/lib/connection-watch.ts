import type { Logger } from '../log.js'

/** When a still-running outage is mentioned again: 30 s in, then every doubling (60 s, 120 s, …). */
const FIRST_REMINDER_MS = 30_000

/** An error's gist for the log: its code and first line (the stack stays out: it is the same every time). */
export const gist = (e: unknown): string => {
  const err = e as { code?: unknown; message?: unknown; errors?: unknown[] } | undefined
  const message = String(err?.message || (err?.errors?.[0] as Error | undefined)?.message || err?.code || e).split('\n')[0]!
  return typeof err?.code === 'string' && !message.includes(err.code) ? `${err.code}: ${message}` : message
}

/**
 * What this process knows of one outside dependency — the database, Redis, storage — logged once per change
 * of state, never once per failed call: "unreachable (why); retrying", a reminder 30 s in and at each
 * doubling after, then "reachable again after N s". A dependency with several connections (Redis) is down
 * from the first one that fails until every one that failed is back (`member`).
 */
export class ConnectionWatch {
  private downSince: number | undefined
  private upSince = 0
  private failures = 0
  private reminderAt = FIRST_REMINDER_MS
  private readonly downMembers = new Set<unknown>()

  constructor(
    private readonly log: Logger,
    /** The dependency as the log names it: `PostgreSQL`, `Redis`, `storage`. */
    private readonly what: string,
  ) {}

  get down(): boolean {
    return this.downSince !== undefined
  }

  /**
   * A call or a connection failed to reach it. `retryMs`: when it is tried next, if known. `startedAt`: when
   * the failed call began — one begun before the last recovery says nothing new and is not counted.
   */
  failed(error: unknown, o: { retryMs?: number; startedAt?: number; member?: unknown } = {}): void {
    if (o.startedAt !== undefined && o.startedAt < this.upSince) return
    this.downMembers.add(o.member ?? this)
    this.failures++
    const retry = o.retryMs !== undefined ? `; retrying in ${seconds(o.retryMs)} s` : '; retrying'
    const now = Date.now()
    if (this.downSince === undefined) {
      this.downSince = now
      this.log.warn(`${this.what} unreachable (${gist(error)})${retry}`)
    } else if (now - this.downSince >= this.reminderAt) {
      this.log.warn(`${this.what} still unreachable after ${seconds(now - this.downSince)} s (${this.failures} failed tries)${retry}`)
      this.reminderAt *= 2
    }
  }

  /** A call or a connection got through (`member`: that connection is back). */
  ok(member?: unknown): void {
    if (this.downSince === undefined) return
    this.downMembers.delete(member ?? this)
    if (this.downMembers.size > 0) return
    this.log.info(`${this.what} reachable again after ${seconds(Date.now() - this.downSince)} s`)
    this.downSince = undefined
    this.upSince = Date.now()
    this.failures = 0
    this.reminderAt = FIRST_REMINDER_MS
  }

  /**
   * A connection closed for good (quit, often while stopping) no longer holds the dependency down; nothing is
   * logged, since its closing says nothing about whether the dependency is back.
   */
  forget(member: unknown): void {
    if (!this.downMembers.delete(member) || this.downMembers.size > 0) return
    this.downSince = undefined
    this.failures = 0
    this.reminderAt = FIRST_REMINDER_MS
  }
}

const seconds = (ms: number) => (ms < 10_000 ? (ms / 1000).toFixed(1) : String(Math.round(ms / 1000)))
