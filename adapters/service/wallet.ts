import type { Principal } from './keys.js'
import { inject, injectable } from './di.js'
import type { Billing } from './billing.js'
import { nowIso, type Db } from './db.js'
import { ServiceError } from './errors.js'
import { renderPrice, type Pricing } from './pricing.js'
import { TOKENS } from './tokens.js'

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
  deposit(accountId: string, amount: number, balance: number): void
  lowBalance(accountId: string, balance: number, threshold: number): void
}

/**
 * The prepaid credit wallet. Every change is one row in an append-only ledger (deposit, hold, charge,
 * release, refund); the per-account totals (`wallets`) are updated in the same transaction, so balance =
 * Σdeposit + Σrefund − Σcharge and held = Σhold − Σrelease always hold (a test checks it). A job is held,
 * charged and released at most once each (a unique index on (job, kind)), which makes settlement idempotent
 * across crashes. Balances never go negative: a hold needs available credits, a charge never exceeds what
 * the hold plus the available balance cover.
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

  state(accountId: string): WalletState {
    const w = this.row(accountId)
    return { balance: w.balance, held: w.held, available: w.balance - w.held, low_balance_threshold: w.low_threshold ?? this.pricing.lowBalanceThreshold }
  }

  ledger(accountId: string, opts: { limit?: number; before?: number } = {}): LedgerEntry[] {
    const limit = Math.min(500, Math.max(1, opts.limit ?? 50))
    return this.db
      .prepare(`SELECT id, kind, amount, job_id, note, balance_after, held_after, created_at FROM wallet_ledger WHERE account_id = ? AND id < ? ORDER BY id DESC LIMIT ?`)
      .all(accountId, opts.before ?? Number.MAX_SAFE_INTEGER, limit) as LedgerEntry[]
  }

  deposit(accountId: string, amount: number, note?: string): WalletState {
    if (!(amount > 0) || !Number.isFinite(amount)) throw new ServiceError('E_VALIDATION', 'amount must be a positive number', { issues: [{ path: 'amount', message: 'must be a positive number' }] })
    this.db.transaction(() => this.append(accountId, 'deposit', amount, null, note ?? null))()
    const state = this.state(accountId)
    this.listener?.deposit(accountId, amount, state.balance)
    return state
  }

  setThreshold(accountId: string, threshold: number): void {
    this.row(accountId)
    this.db.prepare('UPDATE wallets SET low_threshold = ?, low_notified = 0 WHERE account_id = ?').run(threshold, accountId)
  }

  // ── Billing (the render path) ────────────────────────────────────────────────────────────

  /** Holds the estimated credits of a job (sandbox keys: nothing). Throws 402 when they are not available. */
  hold(principal: Principal, jobId: string, estimate: { seconds: number; width: number; height: number }): number {
    if (principal.sandbox) return 0
    return this.holdAmount(principal.accountId, jobId, renderPrice(this.pricing, estimate.seconds, estimate))
  }

  /** Holds `amount` for `jobId` atomically (any spend: renders, images). */
  holdAmount(accountId: string, jobId: string, amount: number): number {
    if (amount <= 0) return 0
    this.db.transaction(() => {
      const w = this.row(accountId)
      if (w.balance - w.held < amount) {
        throw new ServiceError('E_INSUFFICIENT_CREDITS', `this needs ${amount} credits; ${round(w.balance - w.held)} are available (balance ${round(w.balance)}, held ${round(w.held)})`, { required: amount, available: round(w.balance - w.held) })
      }
      this.append(accountId, 'hold', amount, jobId, null)
    }).immediate()
    return amount
  }

  /** Charges what the job really cost and releases its hold; returns the charge. Call inside the job's completing transaction. */
  settle(jobId: string, actual: { seconds: number; width: number; height: number }): number {
    const hold = this.holdOf(jobId)
    if (!hold) return 0 // sandbox or free
    return this.charge(hold.account_id, jobId, renderPrice(this.pricing, actual.seconds, actual))
  }

  /** Charges `amount` against the job's hold (plus available credits if the hold is short); idempotent per job. */
  charge(accountId: string, jobId: string, amount: number): number {
    return this.db.transaction(() => this.chargeInTransaction(accountId, jobId, amount))()
  }

  private chargeInTransaction(accountId: string, jobId: string, amount: number): number {
    const already = this.db.prepare(`SELECT amount FROM wallet_ledger WHERE job_id = ? AND kind = 'charge'`).get(jobId) as { amount: number } | undefined
    if (already) return already.amount
    const hold = this.holdOf(jobId)
    const heldForJob = hold ? hold.amount - this.releasedOf(jobId) : 0
    if (heldForJob > 0) this.append(accountId, 'release', heldForJob, jobId, 'settled')
    const w = this.row(accountId)
    const charged = Math.max(0, Math.min(amount, w.balance - w.held))
    this.append(accountId, 'charge', charged, jobId, charged < amount ? `short by ${round(amount - charged)}` : null)
    return charged
  }

  /** Releases whatever is still held for a failed or cancelled job. */
  release(jobId: string): void {
    this.db.transaction(() => {
      const hold = this.holdOf(jobId)
      if (!hold) return
      const left = hold.amount - this.releasedOf(jobId)
      if (left > 0 && !this.db.prepare(`SELECT 1 FROM wallet_ledger WHERE job_id = ? AND kind = 'charge'`).get(jobId)) this.append(hold.account_id, 'release', left, jobId, 'released')
    })()
  }

  // ── internals ────────────────────────────────────────────────────────────────────────────

  private holdOf(jobId: string) {
    return this.db.prepare(`SELECT account_id, amount FROM wallet_ledger WHERE job_id = ? AND kind = 'hold'`).get(jobId) as { account_id: string; amount: number } | undefined
  }

  private releasedOf(jobId: string): number {
    return (this.db.prepare(`SELECT COALESCE(SUM(amount), 0) AS n FROM wallet_ledger WHERE job_id = ? AND kind = 'release'`).get(jobId) as { n: number }).n
  }

  private row(accountId: string) {
    this.db.prepare('INSERT OR IGNORE INTO wallets (account_id) VALUES (?)').run(accountId)
    return this.db.prepare('SELECT * FROM wallets WHERE account_id = ?').get(accountId) as { balance: number; held: number; low_threshold: number | null; low_notified: number }
  }

  /** One ledger row plus the totals it implies (callers hold a transaction). */
  private append(accountId: string, kind: LedgerKind, amount: number, jobId: string | null, note: string | null): void {
    const w = this.row(accountId)
    const balance = w.balance + (kind === 'deposit' || kind === 'refund' ? amount : kind === 'charge' ? -amount : 0)
    const held = w.held + (kind === 'hold' ? amount : kind === 'release' ? -amount : 0)
    this.db.prepare('INSERT INTO wallet_ledger (account_id, kind, amount, job_id, note, balance_after, held_after, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)').run(accountId, kind, amount, jobId, note, balance, held, nowIso())
    const threshold = w.low_threshold ?? this.pricing.lowBalanceThreshold
    // Low balance fires once per crossing: armed again when the balance is back at or above the threshold.
    const crossed = w.low_notified === 0 && balance < threshold && w.balance >= threshold
    const rearm = balance >= threshold
    this.db.prepare('UPDATE wallets SET balance = ?, held = ?, low_notified = ? WHERE account_id = ?').run(balance, held, rearm ? 0 : crossed ? 1 : w.low_notified, accountId)
    if (crossed) queueMicrotask(() => this.listener?.lowBalance(accountId, balance, threshold))
  }
}

const round = (n: number) => Math.round(n * 100) / 100
