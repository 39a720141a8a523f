import type { Principal } from '../accounts/keys.js'

/** A job as billing needs it. */
export interface BilledJob {
  id: string
  accountId: string
  sandbox: boolean
}

/** What a render costs is priced from: its output seconds and picture size. */
export interface RenderSize {
  seconds: number
  width: number
  height: number
}

/**
 * The spending role, one for all paid work: renders, images, AI jobs and Create API assets. Each job's price is
 * held before the work (402 `E_INSUFFICIENT_CREDITS` when it cannot be), then charged in full on success or
 * released on failure. A render prices itself (`holdRender`, `holdPlanned`, `settleRender`); the rest name
 * their amount (`hold`, `charge`). The `Wallet` implements it over the credit ledger; `freeBilling` spends nothing.
 */
export interface Billing {
  /** Holds a render's estimated price at submission (sandbox keys: nothing); returns what it held. */
  holdRender(principal: Principal, jobId: string, estimate: RenderSize): Promise<number>
  /**
   * Holds the rest of a render's price once it is planned (smart timing resolved), before its first frame;
   * `E_INSUFFICIENT_CREDITS` when the account cannot pay the difference. Returns all that is held for it.
   */
  holdPlanned(job: BilledJob, planned: RenderSize): Promise<number>
  /** Charges what the finished render cost and releases the rest of its hold; returns the charge. Throws `E_INSUFFICIENT_CREDITS` rather than charge less. */
  settleRender(jobId: string, actual: RenderSize): Promise<number>
  /** Holds `amount` for `jobId` (an image, an AI job, an asset); returns it. */
  hold(accountId: string, jobId: string, amount: number): Promise<number>
  /** Charges `amount` for `jobId` against its hold, in full or not at all, once per job; returns the charge. */
  charge(accountId: string, jobId: string, amount: number): Promise<number>
  /** Releases what is still held for a failed or cancelled job. */
  release(jobId: string): Promise<void>
  /** The account's balance, as events report it (`wallet_balance`). */
  balance(accountId: string): Promise<number>
}

/** Billing that spends nothing (an embedding app's free service): every hold and charge is 0, and it keeps no balance. */
export const freeBilling: Billing = {
  holdRender: async () => 0,
  holdPlanned: async () => 0,
  settleRender: async () => 0,
  hold: async () => 0,
  charge: async () => 0,
  release: async () => {},
  balance: async () => 0,
}
