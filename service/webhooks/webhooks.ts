import { randomBytes } from 'node:crypto'
import * as v from 'valibot'
import type { Clock } from '../lib/clock.js'
import { nowIso, type Db } from '../db/db.js'
import { inject, injectable } from '../composition/di.js'
import type { JobEvents } from '../jobs/job-events.js'
import type { Job } from '../jobs/store.js'
import type { WebhookOutbox } from './outbox.js'
import { maskSecret } from '../lib/redact.js'
import { TOKENS } from '../composition/tokens.js'
import { EVENT_NAMES, type EventName } from '../vocabulary.js'
import type { Wallet } from '../billing/wallet.js'
import type { ServiceConfig } from '../config.js'
import { checkCallbackUrl } from '../lib/validate.js'
import { callbackHears, shotstackCallback } from './shotstack-callback.js'
import { logger } from '../log.js'

/** Every event the service sends (listed in vocabulary.ts, which the dashboard shares). */
export { EVENT_NAMES, type EventName }

/** `PUT /v1/webhooks` body (strict: reelforge's own). */
export const WebhookConfigSchema = v.strictObject({
  url: v.pipe(
    v.string(),
    v.url('must be an absolute URL'),
    v.check((u) => /^https?:\/\//i.test(u), 'must be an http or https URL'),
  ),
  events: v.pipe(
    v.array(v.picklist(EVENT_NAMES, (i) => `must be one of ${EVENT_NAMES.join(', ')}; got ${JSON.stringify(i.input)}`)),
    v.minLength(1, 'must name at least one event'),
  ),
  // NUL cannot be stored by PostgreSQL, and a secret that changed on the way in would sign wrongly.
  secret: v.pipe(
    v.string(),
    v.minLength(16, 'must be at least 16 characters'),
    v.maxLength(256, 'must be at most 256 characters'),
    v.check((s) => !s.includes('\u0000'), 'must not contain NUL characters'),
  ),
})
export type WebhookConfig = v.InferOutput<typeof WebhookConfigSchema>

const log = logger('webhooks')

/**
 * Turns what happens into signed deliveries: render events go to the job's own `callback` (signed with the
 * account's signing secret) and, like every other event, to the account's global webhook when it lists the
 * event (signed with that webhook's secret). Payload: `{ event, timestamp, data }`.
 */
@injectable()
export class Webhooks {
  /** Subscribes to job and wallet events at once: whoever builds one gets it connected. */
  constructor(
    @inject(TOKENS.Db) private readonly db: Db,
    @inject(TOKENS.Outbox) private readonly outbox: WebhookOutbox,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Events) events: JobEvents,
    @inject(TOKENS.Wallet) wallet: Wallet,
    @inject(TOKENS.Config) private readonly service: ServiceConfig,
  ) {
    this.subscribe(events, wallet)
  }

  private subscribe(events: JobEvents, wallet: Wallet): void {
    const balance = async (job: Job) => (await wallet.state(job.accountId)).balance
    // An ending's event reads the balance in the ending's transaction: read and write are one savepoint, so a
    // failed read rolls back alone too (PostgreSQL would otherwise drop the ending with it, COMMIT turned ROLLBACK).
    const ending = (write: (job: Job) => Promise<unknown>) => (job: Job) => this.db.savepoint(() => write(job))
    // Every front end hears a job's events (each listens to the shared queue): each event is written once, keyed by
    // the job — `render.processing` by the job and its attempt, since a job rendered again after a crash is
    // processing again (its payload says which attempt).
    const of = (job: Job, once = job.id) => ({ sandbox: job.sandbox, once })
    // A job from Shotstack's surface gets Shotstack's callback body, and only when it ends. Built only when a render ends: Shotstack's jobs hear nothing earlier, so earlier events would waste it.
    const ended = (job: Job) => ({ ...of(job), callbackBody: job.api === 'shotstack' ? shotstackCallback(job) : undefined })
    const cb = (job: Job, event: string) => (callbackHears(job, event) ? job.callback : null)
    events.on('render.queued', (job) => this.emit(job.accountId, 'render.queued', { id: job.id, status: job.status }, cb(job, 'render.queued'), of(job)))
    events.on('render.processing', (job) =>
      this.emit(
        job.accountId,
        'render.processing',
        { id: job.id, status: job.status, attempt: job.attempts },
        cb(job, 'render.processing'),
        of(job, `${job.id}#${job.attempts}`),
      ),
    )
    events.on(
      'render.complete',
      ending(async (job) =>
        this.emit(
          job.accountId,
          'render.complete',
          {
            id: job.id,
            status: 'COMPLETE',
            url: job.url,
            poster: job.poster,
            thumbnail: job.thumbnail,
            duration: job.duration,
            credits_used: job.creditsUsed,
            wallet_balance: await balance(job),
            ...(job.destinations ? { destinations: job.destinations } : {}),
          },
          job.callback,
          ended(job),
        ),
      ),
    )
    events.on(
      'render.failed',
      ending(async (job) =>
        this.emit(
          job.accountId,
          'render.failed',
          { id: job.id, status: 'FAILED', stage: job.stage, error: job.error, credits_used: job.creditsUsed, wallet_balance: await balance(job) },
          job.callback,
          ended(job),
        ),
      ),
    )
    // Wallet events are emitted by the one process whose transaction moved the balance (a low-balance crossing is
    // decided under the wallet's row lock), so they cannot double; each deposit is its own event.
    wallet.listen({
      deposit: (accountId, amount, bal) => this.emit(accountId, 'wallet.deposit', { amount, balance: bal }),
      lowBalance: (accountId, bal, threshold) => this.emit(accountId, 'wallet.low_balance', { balance: bal, threshold }),
    })
  }

  /**
   * Queues the deliveries for one event: the callback (if any) and the global webhook (if subscribed).
   * `sandbox`: sandbox work caused it, so sandbox keys see these deliveries in the log. `once`: what the event is
   * about (a job's id): the event is written once per target for it, whichever process emits it, and every
   * emitter gets the same delivery ids. Called inside the transaction that finishes what the event reports, so
   * the two commit together, its writes are a savepoint there: a failed one rolls back alone before it throws.
   * Outside a transaction (an event another front end also heard) they are plain writes, as before.
   */
  emit(
    accountId: string,
    event: EventName,
    data: Record<string, unknown>,
    callback?: string | null,
    opts: { sandbox?: boolean; callbackBody?: string; once?: string } = {},
  ): Promise<string[]> {
    return this.db.savepoint(() => this.write(accountId, event, data, callback, opts))
  }

  /**
   * `emit` from the transaction that ends what the event reports: a write that fails (its savepoint rolled back) is
   * logged, not thrown, so the ending commits without its webhook — as a render's does through JobEvents.
   */
  async announce(...args: Parameters<Webhooks['emit']>): Promise<void> {
    await this.emit(...args).catch((e) => log.error(`${args[4]?.once ?? args[0]}: its ${args[1]} could not be written:`, e))
  }

  private async write(
    accountId: string,
    event: EventName,
    data: Record<string, unknown>,
    callback: string | null | undefined,
    opts: { sandbox?: boolean; callbackBody?: string; once?: string },
  ): Promise<string[]> {
    const body = JSON.stringify({ event, timestamp: new Date(this.clock.now()).toISOString(), data })
    const ids: string[] = []
    const sandbox = !!opts.sandbox
    const key = opts.once === undefined ? undefined : `${event}/${opts.once}`
    if (callback)
      ids.push(
        await this.outbox.enqueue({
          accountId,
          event,
          target: 'callback',
          url: callback,
          body: opts.callbackBody ?? body,
          secret: await this.signingSecret(accountId),
          sandbox,
          key,
        }),
      )
    const hook = await this.config(accountId)
    if (hook?.events.includes(event))
      ids.push(await this.outbox.enqueue({ accountId, event, target: 'global', url: hook.url, body, secret: hook.secret, sandbox, key }))
    return ids
  }

  async config(accountId: string): Promise<WebhookConfig | undefined> {
    const row = await this.db.get<{ url: string; events: string; secret: string }>('SELECT url, events, secret FROM webhooks WHERE account_id = ?', [accountId])
    return row && { url: row.url, events: JSON.parse(row.events), secret: row.secret }
  }

  /** The global webhook as shown to its owner: the secret masked. */
  async shown(accountId: string) {
    const c = await this.config(accountId)
    return c ? { url: c.url, events: c.events, secret: maskSecret(c.secret) } : null
  }

  /**
   * Sets the global webhook; its URL is bounded and must not point into private networks (a 400 naming `url`).
   * An event named twice is kept once, where first named: a subscription is a set, shown as the client wrote it.
   */
  async set(accountId: string, config: WebhookConfig): Promise<void> {
    await checkCallbackUrl('url', config.url, this.service.network)
    const events = [...new Set(config.events)]
    await this.db.run(
      'INSERT INTO webhooks (account_id, url, events, secret, updated_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (account_id) DO UPDATE SET url = excluded.url, events = excluded.events, secret = excluded.secret, updated_at = excluded.updated_at',
      [accountId, config.url, JSON.stringify(events), config.secret, nowIso()],
    )
  }

  async remove(accountId: string): Promise<boolean> {
    return (await this.db.run('DELETE FROM webhooks WHERE account_id = ?', [accountId])) > 0
  }

  /**
   * The secret `callback` deliveries are signed with: one per account, created on first use. It is shown
   * once — by `reelforge keys create` for a new account, or by rotating it (`POST /v1/webhooks/secret`).
   */
  async signingSecret(accountId: string): Promise<string> {
    const row = await this.db.get<{ signing_secret: string | null }>('SELECT signing_secret FROM accounts WHERE id = ?', [accountId])
    if (row?.signing_secret) return row.signing_secret
    return this.rotateSigningSecret(accountId)
  }

  async rotateSigningSecret(accountId: string): Promise<string> {
    const secret = `whsec_${randomBytes(24).toString('base64url')}`
    await this.db.run('UPDATE accounts SET signing_secret = ? WHERE id = ?', [secret, accountId])
    return secret
  }
}
