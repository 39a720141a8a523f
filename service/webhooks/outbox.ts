import { timeOrderedId } from '../lib/ids.js'
import type { WebhookSender } from './http-sender.js'
import { signWebhook, SIGNATURE_HEADER } from './signature.js'
import type { Clock } from '../lib/clock.js'
import { nowIso, type Db } from '../db/db.js'
import { inject, injectable } from '../composition/di.js'
import type { Delivery, DeliveryStatus } from '../api-types.js'
import { destinationOf, DeliverySlots } from './outbox-slots.js'
import { TOKENS } from '../composition/tokens.js'
import { logger } from '../log.js'
import { isUnavailable } from '../lib/retry.js'

const log = logger('webhooks')

/** Delays before retries 1…5, each counted from the failure before it (the seed's schedule). */
export const RETRY_SCHEDULE_MS = [30_000, 120_000, 600_000, 3_600_000, 21_600_000]
/** Sends in flight at once in one process: in all, per destination (URL origin), per account. */
export const MAX_IN_FLIGHT = 16
export const MAX_PER_DESTINATION = 2
export const MAX_PER_ACCOUNT = 8
/** A claimed delivery is someone's for this long (well past the sender's time-out); then it is due again. */
const LEASE_MS = 60_000
/** Due deliveries read per claim round. */
const CLAIM_WINDOW = 50

export type { Delivery, DeliveryStatus }

type Row = Record<string, unknown>
const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ')

/**
 * The webhook outbox: every delivery is a row written before anything is sent, so a restart keeps each
 * pending delivery and its due time (at-least-once; receivers deduplicate on `webhook-id`). An event is written
 * once per target however many processes emit it (`enqueue`'s `key`), so it has one `webhook-id`. Due deliveries
 * are claimed with an in-flight lease and POSTed concurrently — at most `MAX_PER_DESTINATION` at once to one
 * URL origin and `MAX_PER_ACCOUNT` for one account — so a receiver that never answers delays only its own
 * deliveries. Each is then marked delivered (2xx within the time-out) or rescheduled by `RETRY_SCHEDULE_MS`;
 * after the 5th failed retry it is `failed` and stays in the log, where it can be replayed.
 */
@injectable()
export class WebhookOutbox {
  private timer: NodeJS.Timeout | undefined
  private running = false
  /** The background loop's current pass, and whether something woke it meanwhile. */
  private pumping: Promise<void> | undefined
  private wokenWhilePumping = false
  /** Claims run one at a time (the loop and `tick` callers), so slots are counted before the next claim. */
  private claiming: Promise<unknown> = Promise.resolve()
  private readonly slots = new DeliverySlots({ total: MAX_IN_FLIGHT, perDestination: MAX_PER_DESTINATION, perAccount: MAX_PER_ACCOUNT })
  /** Every send in flight here, until its outcome is recorded. */
  private readonly sending = new Set<Promise<void>>()
  /** Aborted by `stop`: sends cut short are handed back, not counted as attempts. */
  private shutdown = new AbortController()

  constructor(
    @inject(TOKENS.Db) private readonly db: Db,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Sender) private readonly sender: WebhookSender,
  ) {}

  /**
   * Stores a delivery due now and wakes the sender; resolves to its id. `sandbox`: caused by sandbox work (sandbox
   * keys see only those). `key` names what happened (`render.processing/<job>#<attempt>`): a delivery to the same
   * target with the same key is written once, whichever process emits it first — the others get that delivery's id,
   * so every receiver sees one `webhook-id` per event.
   */
  async enqueue(d: {
    accountId: string
    event: string
    target: 'callback' | 'global'
    url: string
    body: string
    secret: string
    sandbox?: boolean
    key?: string
  }): Promise<string> {
    const id = timeOrderedId('msg_')
    const now = nowIso()
    const added = await this.db.run(
      `INSERT INTO webhook_deliveries (id, account_id, event, target, url, origin, sandbox, body, secret, status, next_attempt_at, created_at, updated_at, event_key)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
      [id, d.accountId, d.event, d.target, d.url, destinationOf(d.url), !!d.sandbox, d.body, d.secret, this.clock.now(), now, now, d.key ?? null],
    )
    if (!added && d.key) {
      const first = await this.db.get<{ id: string }>('SELECT id FROM webhook_deliveries WHERE event_key = ? AND target = ?', [d.key, d.target])
      if (first) return first.id
    }
    this.db.afterCommit(() => this.wake())
    return id
  }

  /**
   * Sends every delivery due now (concurrently, within the limits) and waits until every send in flight —
   * also those the background loop started — is recorded; returns how many this call started.
   */
  async tick(): Promise<number> {
    let n = 0
    for (;;) {
      const started = await this.dispatch()
      while (this.sending.size) await Promise.all([...this.sending])
      n += started
      if (!started) return n
    }
  }

  /** Claims the due deliveries that have a free slot, oldest due first, and starts their sends; returns how many. */
  private dispatch(): Promise<number> {
    const run = async () => {
      let started = 0
      for (;;) {
        if (this.slots.full) return started
        const now = this.clock.now()
        // Deliveries to a saturated destination or account stay unclaimed (no lease): other servers may take them.
        const { destinations, accounts } = this.slots.saturated()
        const skip = `${destinations.length ? `AND COALESCE(origin, url) NOT IN (${placeholders(destinations.length)})` : ''} ${accounts.length ? `AND account_id NOT IN (${placeholders(accounts.length)})` : ''}`
        const due = await this.db.all<{ id: string; account_id: string; destination: string }>(
          `SELECT id, account_id, COALESCE(origin, url) AS destination FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= ? ${skip} ORDER BY next_attempt_at, created_at, rowid LIMIT ?`,
          [now, ...destinations, ...accounts, CLAIM_WINDOW],
        )
        const picked = due.filter((d) => this.slots.take(d.destination, d.account_id))
        if (!picked.length) return started
        // Claimed with an in-flight mark and a lease, only if still due: another server claiming at once gets none of these.
        const claimed = await this.db
          .all<Row>(
            `UPDATE webhook_deliveries SET next_attempt_at = ?, in_flight = 1 WHERE id IN (${placeholders(picked.length)}) AND status = 'pending' AND next_attempt_at <= ? RETURNING *`,
            [now + LEASE_MS, ...picked.map((d) => d.id), now],
          )
          .catch((e) => {
            for (const d of picked) this.slots.give(d.destination, d.account_id)
            throw e
          })
        const unclaimed = new Map(picked.map((d) => [d.id, d]))
        claimed.sort((a, b) => (a.created_at as string).localeCompare(b.created_at as string))
        for (const row of claimed) {
          this.launch(row, unclaimed.get(row.id as string)!)
          unclaimed.delete(row.id as string)
        }
        for (const d of unclaimed.values()) this.slots.give(d.destination, d.account_id) // another server took it meanwhile
        started += claimed.length
      }
    }
    const next = this.claiming.then(run, run)
    this.claiming = next.catch(() => 0)
    return next
  }

  /** Sends one claimed delivery in the background; its slot is given back (and the loop woken) once recorded. */
  private launch(row: Row, slot: { destination: string; account_id: string }): void {
    const send: Promise<void> = this.attempt(row)
      .catch((e) => log.error(`delivery ${row.id as string} failed to record:`, isUnavailable(e) ? (e as Error).message : e))
      .finally(() => {
        this.slots.give(slot.destination, slot.account_id)
        this.sending.delete(send)
        this.wake()
      })
    this.sending.add(send)
  }

  private async attempt(row: Row): Promise<void> {
    const id = row.id as string
    const body = row.body as string
    const attempt = (row.attempts as number) + 1
    const signal = this.shutdown.signal
    const result = await this.sender.send(
      row.url as string,
      body,
      {
        'webhook-id': id,
        'webhook-timestamp': String(Math.floor(this.clock.now() / 1000)),
        [SIGNATURE_HEADER]: signWebhook(body, row.secret as string),
        'x-reelforge-event': row.event as string,
      },
      { signal },
    )
    const now = this.clock.now()
    if (!result.ok && signal.aborted) {
      // Cut short by a shutdown: not the receiver's failure. Due again at once, here after a restart or on
      // another server, instead of waiting out the lease.
      await this.db.run(`UPDATE webhook_deliveries SET in_flight = 0, next_attempt_at = ? WHERE id = ? AND status = 'pending' AND in_flight = 1`, [now, id])
      return
    }
    await this.db.transaction(async () => {
      await this.db.run(
        `INSERT INTO webhook_attempts (delivery_id, attempt, at, status, error, duration_ms) VALUES (?, ?, ?, ?, ?, ?)
          ON CONFLICT (delivery_id, attempt) DO UPDATE SET at = excluded.at, status = excluded.status, error = excluded.error, duration_ms = excluded.duration_ms`,
        [id, attempt, new Date(now).toISOString(), result.status, result.error ?? null, Math.round(result.durationMs)],
      )
      if (result.ok) {
        await this.db.run(
          `UPDATE webhook_deliveries SET status = 'delivered', in_flight = 0, attempts = ?, last_status = ?, last_error = NULL, next_attempt_at = NULL, updated_at = ?, delivered_at = ? WHERE id = ?`,
          [attempt, result.status, nowIso(), nowIso(), id],
        )
        return
      }
      const retry = row.retry as number
      const exhausted = retry >= RETRY_SCHEDULE_MS.length
      await this.db.run(
        `UPDATE webhook_deliveries SET status = ?, in_flight = 0, attempts = ?, retry = ?, last_status = ?, last_error = ?, next_attempt_at = ?, updated_at = ? WHERE id = ?`,
        [
          exhausted ? 'failed' : 'pending',
          attempt,
          exhausted ? retry : retry + 1,
          result.status,
          result.error ?? null,
          exhausted ? null : now + RETRY_SCHEDULE_MS[retry]!,
          nowIso(),
          id,
        ],
      )
    })
  }

  /** Starts sending in the background (real timers; the clock decides what is due). */
  async start(): Promise<void> {
    if (this.running) return
    this.running = true
    if (this.shutdown.signal.aborted) this.shutdown = new AbortController()
    // Deliveries in flight when the process died are due again now (the receiver may see them twice).
    await this.db.run(`UPDATE webhook_deliveries SET next_attempt_at = ?, in_flight = 0 WHERE status = 'pending' AND in_flight = 1`, [this.clock.now()])
    this.schedule(0)
  }

  /** Stops the loop and aborts the sends in flight (handed back as due now), then waits for them to be. */
  async stop(): Promise<void> {
    this.running = false
    clearTimeout(this.timer)
    this.shutdown.abort()
    await this.pumping
    await this.claiming
    while (this.sending.size) await Promise.all([...this.sending])
  }

  private wake() {
    if (!this.running) return
    // A wake during a pass must not be lost to the pass's own rescheduling: it runs again at once instead.
    if (this.pumping) this.wokenWhilePumping = true
    else this.schedule(0)
  }

  private schedule(ms: number) {
    clearTimeout(this.timer)
    this.timer = setTimeout(() => void this.pump(), ms)
    this.timer.unref()
  }

  /** One pass of the background loop: start what is due, then sleep until the next due time (1 s at most). */
  private pump(): Promise<void> {
    this.pumping ??= (async () => {
      this.wokenWhilePumping = false
      let delay = 1000
      try {
        await this.dispatch()
        delay = await this.untilNextDue()
      } catch (e) {
        if (!isUnavailable(e)) log.error('delivery loop failed:', e) // an outage is logged once, by its watch
      }
      this.pumping = undefined
      if (this.running) this.schedule(this.wokenWhilePumping ? 0 : delay)
    })()
    return this.pumping
  }

  private async untilNextDue(): Promise<number> {
    const next = await this.db.get<{ t: number | null }>(`SELECT MIN(next_attempt_at) AS t FROM webhook_deliveries WHERE status = 'pending' AND in_flight = 0`)
    const wait = next?.t == null ? 1000 : next.t - this.clock.now()
    // Due but not started means waiting for a slot: a finished send wakes the loop.
    return wait <= 0 ? 1000 : Math.min(1000, wait)
  }

  /** An account's deliveries, newest first; `sandboxOnly`: those caused by sandbox work (what a sandbox key sees). */
  async list(accountId: string, opts: { status?: DeliveryStatus; event?: string; limit?: number; sandboxOnly?: boolean } = {}): Promise<Delivery[]> {
    const where = ['account_id = @account']
    if (opts.sandboxOnly) where.push('sandbox = 1')
    if (opts.status) where.push('status = @status')
    if (opts.event) where.push('event = @event')
    const rows = await this.db.all(`SELECT * FROM webhook_deliveries WHERE ${where.join(' AND ')} ORDER BY created_at DESC, rowid DESC LIMIT @limit`, {
      account: accountId,
      status: opts.status ?? null,
      event: opts.event ?? null,
      limit: opts.limit ?? 50,
    })
    return Promise.all(rows.map((r) => this.toDelivery(r)))
  }

  async get(accountId: string, id: string, sandboxOnly = false): Promise<Delivery | undefined> {
    const row = await this.db.get(`SELECT * FROM webhook_deliveries WHERE account_id = ? AND id = ? ${sandboxOnly ? 'AND sandbox = 1' : ''}`, [accountId, id])
    return row && this.toDelivery(row)
  }

  /** Sends a delivery again now, with a fresh retry schedule. */
  async replay(accountId: string, id: string, sandboxOnly = false): Promise<Delivery | undefined> {
    const changed = await this.db.run(
      `UPDATE webhook_deliveries SET status = 'pending', in_flight = 0, retry = 0, next_attempt_at = ?, updated_at = ? WHERE account_id = ? AND id = ? ${sandboxOnly ? 'AND sandbox = 1' : ''}`,
      [this.clock.now(), nowIso(), accountId, id],
    )
    if (!changed) return undefined
    this.wake()
    return this.get(accountId, id)
  }

  private async toDelivery(r: Record<string, unknown>): Promise<Delivery> {
    const attempts = await this.db.all<Delivery['attempt_log'][number]>(
      'SELECT attempt, at, status, error, duration_ms FROM webhook_attempts WHERE delivery_id = ? ORDER BY attempt',
      [r.id],
    )
    return {
      id: r.id as string,
      event: r.event as string,
      target: r.target as Delivery['target'],
      url: r.url as string,
      status: r.status as DeliveryStatus,
      attempts: r.attempts as number,
      retry: r.retry as number,
      next_attempt_at: r.status === 'pending' && r.next_attempt_at !== null ? new Date(r.next_attempt_at as number).toISOString() : null,
      last_status: (r.last_status as number) ?? null,
      last_error: (r.last_error as string) ?? null,
      created_at: r.created_at as string,
      updated_at: r.updated_at as string,
      delivered_at: (r.delivered_at as string) ?? null,
      payload: JSON.parse(r.body as string),
      attempt_log: attempts,
    }
  }
}
