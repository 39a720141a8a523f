import { timeOrderedId } from './ids.js'
import { signWebhook, SIGNATURE_HEADER, type WebhookSender } from '../../plugins/index.js'
import type { Clock } from './clock.js'
import { nowIso, type Db } from './db.js'
import { inject, injectable } from './di.js'
import type { Delivery, DeliveryStatus } from './api-types.js'
import { TOKENS } from './tokens.js'

/** Delays before retries 1…5, each counted from the failure before it (the seed's schedule). */
export const RETRY_SCHEDULE_MS = [30_000, 120_000, 600_000, 3_600_000, 21_600_000]

export type { Delivery, DeliveryStatus }

/**
 * The webhook outbox: every delivery is a row written before anything is sent, so a restart keeps each
 * pending delivery and its due time (at-least-once; receivers deduplicate on `webhook-id`). A delivery is
 * claimed with a short in-flight lease, POSTed with its signature, and then marked delivered (2xx within
 * the time-out) or rescheduled by `RETRY_SCHEDULE_MS`; after the 5th failed retry it is `failed` and stays
 * in the log, where it can be replayed.
 */
@injectable()
export class WebhookOutbox {
  private timer: NodeJS.Timeout | undefined
  private running = false
  private ticking: Promise<number> | undefined

  constructor(
    @inject(TOKENS.Db) private readonly db: Db,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Sender) private readonly sender: WebhookSender,
  ) {}

  /** Stores a delivery due now and wakes the sender. */
  async enqueue(d: { accountId: string; event: string; target: 'callback' | 'global'; url: string; body: string; secret: string }): Promise<string> {
    const id = timeOrderedId('msg_')
    const now = nowIso()
    await this.db.run(
      `INSERT INTO webhook_deliveries (id, account_id, event, target, url, body, secret, status, next_attempt_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?)`,
      [id, d.accountId, d.event, d.target, d.url, d.body, d.secret, this.clock.now(), now, now],
    )
    this.db.afterCommit(() => this.wake())
    return id
  }

  /** Sends every delivery due now, in the order they were created; returns how many were attempted. */
  tick(): Promise<number> {
    // One tick at a time: a second caller waits for the running one, then runs again for what came due.
    const run = async () => {
      let n = 0
      for (;;) {
        const now = this.clock.now()
        // Claimed with an in-flight mark and a minute's lease, so no other loop sends it meanwhile.
        const due = await this.db.all(
          `UPDATE webhook_deliveries SET next_attempt_at = ?, in_flight = 1 WHERE id IN (SELECT id FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at, created_at, rowid LIMIT 20 ${this.db.skipLocked}) RETURNING *`,
          [now + 60_000, now],
        )
        if (!due.length) return n
        due.sort((a, b) => (a.created_at as string).localeCompare(b.created_at as string))
        for (const row of due) await this.attempt(row)
        n += due.length
      }
    }
    const previous = this.ticking ?? Promise.resolve(0)
    const next = previous.then(run, run)
    this.ticking = next
    return next
  }

  private async attempt(row: Record<string, unknown>): Promise<void> {
    const id = row.id as string
    const body = row.body as string
    const attempt = (row.attempts as number) + 1
    const result = await this.sender.send(row.url as string, body, {
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(this.clock.now() / 1000)),
      [SIGNATURE_HEADER]: signWebhook(body, row.secret as string),
      'x-reelforge-event': row.event as string,
    })
    const now = this.clock.now()
    await this.db.transaction(async () => {
      await this.db.run(
        `INSERT INTO webhook_attempts (delivery_id, attempt, at, status, error, duration_ms) VALUES (?, ?, ?, ?, ?, ?)
          ON CONFLICT (delivery_id, attempt) DO UPDATE SET at = excluded.at, status = excluded.status, error = excluded.error, duration_ms = excluded.duration_ms`,
        [id, attempt, new Date(now).toISOString(), result.status, result.error ?? null, Math.round(result.durationMs)],
      )
      if (result.ok) {
        await this.db.run(`UPDATE webhook_deliveries SET status = 'delivered', in_flight = 0, attempts = ?, last_status = ?, last_error = NULL, next_attempt_at = NULL, updated_at = ?, delivered_at = ? WHERE id = ?`, [attempt, result.status, nowIso(), nowIso(), id])
        return
      }
      const retry = row.retry as number
      const exhausted = retry >= RETRY_SCHEDULE_MS.length
      await this.db.run(`UPDATE webhook_deliveries SET status = ?, in_flight = 0, attempts = ?, retry = ?, last_status = ?, last_error = ?, next_attempt_at = ?, updated_at = ? WHERE id = ?`, [
        exhausted ? 'failed' : 'pending',
        attempt,
        exhausted ? retry : retry + 1,
        result.status,
        result.error ?? null,
        exhausted ? null : now + RETRY_SCHEDULE_MS[retry]!,
        nowIso(),
        id,
      ])
    })
  }

  /** Starts sending in the background (real timers; the clock decides what is due). */
  async start(): Promise<void> {
    if (this.running) return
    this.running = true
    // Deliveries in flight when the process died are due again now (the receiver may see them twice).
    await this.db.run(`UPDATE webhook_deliveries SET next_attempt_at = ?, in_flight = 0 WHERE status = 'pending' AND in_flight = 1`, [this.clock.now()])
    this.schedule(0)
  }

  async stop(): Promise<void> {
    this.running = false
    clearTimeout(this.timer)
    await this.ticking
  }

  private wake() {
    if (this.running) this.schedule(0)
  }

  private schedule(ms: number) {
    clearTimeout(this.timer)
    this.timer = setTimeout(async () => {
      await this.tick().catch((e) => console.error('[webhooks] delivery loop failed:', e))
      if (!this.running) return
      const next = await this.db.get<{ t: number | null }>(`SELECT MIN(next_attempt_at) AS t FROM webhook_deliveries WHERE status = 'pending'`).catch(() => ({ t: null }))
      if (!this.running) return
      this.schedule(next?.t == null ? 1000 : Math.min(1000, Math.max(0, next.t - this.clock.now())))
    }, ms)
    this.timer.unref()
  }

  async list(accountId: string, opts: { status?: DeliveryStatus; event?: string; limit?: number } = {}): Promise<Delivery[]> {
    const where = ['account_id = @account']
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

  async get(accountId: string, id: string): Promise<Delivery | undefined> {
    const row = await this.db.get('SELECT * FROM webhook_deliveries WHERE account_id = ? AND id = ?', [accountId, id])
    return row && this.toDelivery(row)
  }

  /** Sends a delivery again now, with a fresh retry schedule. */
  async replay(accountId: string, id: string): Promise<Delivery | undefined> {
    const changed = await this.db.run(`UPDATE webhook_deliveries SET status = 'pending', in_flight = 0, retry = 0, next_attempt_at = ?, updated_at = ? WHERE account_id = ? AND id = ?`, [this.clock.now(), nowIso(), accountId, id])
    if (!changed) return undefined
    this.wake()
    return this.get(accountId, id)
  }

  private async toDelivery(r: Record<string, unknown>): Promise<Delivery> {
    const attempts = await this.db.all<Delivery['attempt_log'][number]>('SELECT attempt, at, status, error, duration_ms FROM webhook_attempts WHERE delivery_id = ? ORDER BY attempt', [r.id])
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
