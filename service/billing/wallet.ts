import type { Principal } from '../accounts/keys.js'
import { inject, injectable } from '../composition/di.js'
import type { BilledJob, Billing, RenderSize } from './billing.js'
import { nowIso, type Db } from '../db/db.js'
import { ServiceError } from '../errors.js'
import { renderPrice, type Pricing } from './pricing.js'
import { TOKENS } from '../composition/tokens.js'

export type LedgerKind = 'deposit' | 'hold' | 'charge' | 'release' | 'refund'

export interface LedgerEntry {
  id: number
  kind: LedgerKind
  amount: number
  job_id: string | null
  note: string | null
  balance_after: number
  held_after: number
  created_at: string
}

export interface WalletState {
  balance: number
  held: number
  available: number
  low_balance_threshold: number
}

/** Wallet events for webhooks. */
export interface WalletListener {
  deposit(accountId: string, amount: number, balance: number): Promise<unknown>
  lowBalance(accountId: string, balance: number, threshold: number): Promise<unknown>
}

/**
 * The prepaid credit wallet. Every change is one row in an append-only ledger (deposit, hold, charge,
 * release, refund); the per-account totals (`wallets`) are updated in the same transaction, so balance =
 * Σdeposit + Σrefund − Σcharge and held = Σhold − Σrelease always hold (a test checks it). A job is charged
 * and released at most once each, and held once at submission plus once more per planned price (unique
 * indexes), which makes settlement idempotent across crashes. Balances never go negative: a hold needs
 * available credits, and a charge the hold plus the available balance cannot cover is refused, never cut.
 */
@injectable()
export class Wallet implements Billing {
  private listener: WalletListener | undefined

  constructor(
    @inject(TOKENS.Db) private readonly db: Db,
    @inject(TOKENS.Pricing) private readonly pricing: Pricing,
  ) {}

  /** Where deposit and low-balance events go (the webhook fan-out). */
  listen(listener: WalletListener): void {
    this.listener = listener
  }

  async state(accountId: string): Promise<WalletState> {
    return this.toState(await this.row(accountId))
  }

  private toState(w: WalletRow): WalletState {
    return { balance: w.balance, held: w.held, available: w.balance - w.held, low_balance_threshold: w.low_threshold ?? this.pricing.lowBalanceThreshold }
  }

  ledger(accountId: string, opts: { limit?: number; before?: number } = {}): Promise<LedgerEntry[]> {
    const limit = Math.min(500, Math.max(1, opts.limit ?? 50))
    return this.db.all<LedgerEntry>(
      `SELECT id, kind, amount, job_id, note, balance_after, held_after, created_at FROM wallet_ledger WHERE account_id = ? AND id < ? ORDER BY id DESC LIMIT ?`,
      [accountId, opts.before ?? Number.MAX_SAFE_INTEGER, limit],
    )
  }

  async deposit(accountId: string, amount: number, note?: string): Promise<WalletState> {
    if (!(amount > 0) || !Number.isFinite(amount))
      throw new ServiceError('E_VALIDATION', 'amount must be a positive number', { issues: [{ path: 'amount', message: 'must be a positive number' }] })
    const state = this.toState(await this.db.transaction(async () => this.append(accountId, 'deposit', amount, null, note ?? null, await this.row(accountId))))
    await this.listener?.deposit(accountId, amount, state.balance)
    return state
  }

  /**
   * Sets the low-balance threshold. Moving it is a crossing like a spend: raised above the balance, the event
   * fires now (once); lowered to the balance or under it, the event is armed again.
   */
  async setThreshold(accountId: string, threshold: number): Promise<void> {
    await this.db.transaction(async () => {
      const w = await this.row(accountId)
      const before = w.low_threshold ?? this.pricing.lowBalanceThreshold
      const crossed = w.balance < threshold && w.balance >= before
      const lowNotified = w.balance >= threshold ? 0 : crossed ? 1 : w.low_notified
      await this.db.run('UPDATE wallets SET low_threshold = ?, low_notified = ? WHERE account_id = ?', [threshold, lowNotified, accountId])
      if (crossed) this.db.afterCommit(async () => void (await this.listener?.lowBalance(accountId, w.balance, threshold)))
    })
  }

  // ── Billing (every paid job: renders, images, AI jobs, assets) ─────────────────────────────

  async balance(accountId: string): Promise<number> {
    return (await this.state(accountId)).balance
  }

  /** Holds the estimated credits of a render (sandbox keys: nothing). Throws 402 when they are not available. */
  async holdRender(principal: Principal, jobId: string, estimate: RenderSize): Promise<number> {
    if (principal.sandbox) return 0
    return this.hold(principal.accountId, jobId, renderPrice(this.pricing, estimate.seconds, estimate))
  }

  /** Holds `amount` for `jobId` atomically (any spend: renders, images, AI jobs). */
  async hold(accountId: string, jobId: string, amount: number): Promise<number> {
    if (amount <= 0) return 0
    await this.db.transaction(async () => {
      const w = await this.row(accountId)
      if (w.balance - w.held < amount) {
        throw new ServiceError(
          'E_INSUFFICIENT_CREDITS',
          `this needs ${amount} credits; ${round(w.balance - w.held)} are available (balance ${round(w.balance)}, held ${round(w.held)})`,
          { required: amount, available: round(w.balance - w.held) },
        )
      }
      await this.append(accountId, 'hold', amount, jobId, null, w)
    })
    return amount
  }

  /**
   * Holds the rest of a render's price once it is planned and its real duration known (smart timing): the
   * submission could only estimate from numeric timing. Nothing when the hold already covers it; throws
   * `E_INSUFFICIENT_CREDITS` when the available credits cannot, and for a job that has already ended.
   */
  async holdPlanned(job: BilledJob, planned: RenderSize): Promise<number> {
    if (job.sandbox) return 0
    const price = renderPrice(this.pricing, planned.seconds, planned)
    return this.db.transaction(async () => {
      const w = await this.row(job.accountId) // the account's lock first: a concurrent release or spend waits
      // Released or charged: the job ended (cancelled, failed, settled) — a hold now would never be released.
      if (await this.db.get(`SELECT 1 FROM wallet_ledger WHERE job_id = ? AND kind IN ('release', 'charge')`, [job.id]))
        throw new ServiceError('E_CONFLICT', `render ${job.id} has already ended`)
      const held = (await this.holdOf(job.id))?.amount ?? 0
      if (held >= price) return held
      const more = price - held
      const available = round(w.balance - w.held)
      if (available < more) {
        throw new ServiceError(
          'E_INSUFFICIENT_CREDITS',
          `the render lasts ${planned.seconds.toFixed(1)} s, which costs ${price} credits; held for it: ${held}, available: ${available} (balance ${round(w.balance)}, held ${round(w.held)})`,
          { required: price, held, available },
        )
      }
      await this.append(job.accountId, 'hold', more, job.id, `planned: ${round(planned.seconds)} s costs ${price}`, w)
      return price
    })
  }

  /**
   * Charges what the job really cost and releases its hold; returns the charge. Call inside the job's
   * completing transaction. Throws `E_INSUFFICIENT_CREDITS` (and charges nothing) when the hold and the
   * available credits cannot pay the whole price: a render is never delivered for less.
   */
  async settleRender(jobId: string, actual: RenderSize): Promise<number> {
    const hold = await this.holdOf(jobId)
    if (!hold) return 0 // sandbox or free
    return this.charge(hold.account_id, jobId, renderPrice(this.pricing, actual.seconds, actual))
  }

  /** Charges `amount` against the job's hold (plus available credits if the hold is short), in full or not at all; idempotent per job. */
  charge(accountId: string, jobId: string, amount: number): Promise<number> {
    return this.db.transaction(async () => {
      let w = await this.row(accountId) // the account's lock first: concurrent settlements of one job wait here
      const already = await this.db.get<{ amount: number }>(`SELECT amount FROM wallet_ledger WHERE job_id = ? AND kind = 'charge'`, [jobId])
      if (already) return already.amount
      const hold = await this.holdOf(jobId)
      const heldForJob = hold ? hold.amount - (await this.releasedOf(jobId)) : 0
      if (heldForJob > 0) w = await this.append(accountId, 'release', heldForJob, jobId, 'settled', w)
      // Never a partial charge: the transaction rolls back (the hold stays for the caller to release).
      if (w.balance - w.held < amount)
        throw new ServiceError(
          'E_INSUFFICIENT_CREDITS',
          `this costs ${amount} credits; held for it: ${round(heldForJob)}, available: ${round(w.balance - w.held - heldForJob)}`,
          { required: amount, held: heldForJob },
        )
      await this.append(accountId, 'charge', amount, jobId, null, w)
      return amount
    })
  }

  /** Releases whatever is still held for a failed or cancelled job. */
  async release(jobId: string): Promise<void> {
    await this.db.transaction(async () => {
      const account = (await this.holdOf(jobId))?.account_id
      if (!account) return
      const w = await this.row(account)
      // Summed under the account's lock: a concurrent `holdPlanned` has either added its hold already or waits.
      const hold = (await this.holdOf(jobId))!
      const left = hold.amount - (await this.releasedOf(jobId))
      if (left > 0 && !(await this.db.get(`SELECT 1 FROM wallet_ledger WHERE job_id = ? AND kind = 'charge'`, [jobId])))
        await this.append(hold.account_id, 'release', left, jobId, 'released', w)
    })
  }

  // ── internals ────────────────────────────────────────────────────────────────────────────

  /** What a job holds in all: its submission's hold plus any taken when it was planned. */
  private holdOf(jobId: string) {
    return this.db.get<{ account_id: string; amount: number }>(
      `SELECT account_id, SUM(amount) AS amount FROM wallet_ledger WHERE job_id = ? AND kind = 'hold' GROUP BY account_id`,
      [jobId],
    )
  }

  private async releasedOf(jobId: string): Promise<number> {
    return (await this.db.get<{ n: number }>(`SELECT COALESCE(SUM(amount), 0) AS n FROM wallet_ledger WHERE job_id = ? AND kind = 'release'`, [jobId]))!.n
  }

  /** The account's totals row (created on first use), locked for the transaction on PostgreSQL. */
  private async row(accountId: string): Promise<WalletRow> {
    const existing = await this.db.get<WalletRow>(`SELECT * FROM wallets WHERE account_id = ? ${this.db.forUpdate}`, [accountId])
    if (existing) return existing
    await this.db.run('INSERT INTO wallets (account_id) VALUES (?) ON CONFLICT (account_id) DO NOTHING', [accountId])
    return (await this.db.get<WalletRow>(`SELECT * FROM wallets WHERE account_id = ? ${this.db.forUpdate}`, [accountId]))!
  }

  /**
   * One ledger row plus the totals it implies, from the account's row `w` as the caller holds it (in its
   * transaction); returns the row as it is now, so a second entry in the same transaction needs no re-read.
   */
  private async append(accountId: string, kind: LedgerKind, amount: number, jobId: string | null, note: string | null, w: WalletRow): Promise<WalletRow> {
    const balance = w.balance + (kind === 'deposit' || kind === 'refund' ? amount : kind === 'charge' ? -amount : 0)
    const held = w.held + (kind === 'hold' ? amount : kind === 'release' ? -amount : 0)
    await this.db.run(
      'INSERT INTO wallet_ledger (account_id, kind, amount, job_id, note, balance_after, held_after, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      [accountId, kind, amount, jobId, note, balance, held, nowIso()],
    )
    const threshold = w.low_threshold ?? this.pricing.lowBalanceThreshold
    // Low balance fires once per crossing: armed again when the balance is back at or above the threshold.
    const crossed = w.low_notified === 0 && balance < threshold && w.balance >= threshold
    const rearm = balance >= threshold
    const lowNotified = rearm ? 0 : crossed ? 1 : w.low_notified
    await this.db.run('UPDATE wallets SET balance = ?, held = ?, low_notified = ? WHERE account_id = ?', [balance, held, lowNotified, accountId])
    if (crossed) this.db.afterCommit(async () => void (await this.listener?.lowBalance(accountId, balance, threshold)))
    return { balance, held, low_threshold: w.low_threshold, low_notified: lowNotified }
  }
}

interface WalletRow {
  balance: number
  held: number
  low_threshold: number | null
  low_notified: number
}

const round = (n: number) => Math.round(n * 100) / 100
