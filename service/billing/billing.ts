import type { Principal } from '../accounts/keys.js'

/** A job as billing needs it. */
export interface BilledJob {
  id: string
  accountId: string
  sandbox: boolean
}

/**
 * The wallet hook of the render path: hold an estimate at submission, hold the rest once the render is planned
 * (its real duration known), settle the actual amount at the end, release on failure. Until a wallet is
 * configured, rendering is free (every amount 0).
 */
export interface Billing {
  /** Credits to hold for a job; throws a ServiceError (402) when the account cannot pay. */
  hold(principal: Principal, jobId: string, estimate: { seconds: number; width: number; height: number }): Promise<number>
  /**
   * Makes the job's hold cover the price of the render as planned (smart timing resolved), before its first
   * frame; throws `E_INSUFFICIENT_CREDITS` when the account cannot pay the difference. Returns what is held.
   */
  cover(job: BilledJob, planned: { seconds: number; width: number; height: number }): Promise<number>
  /** Charges what the finished job cost and releases the rest of its hold; returns the charge. Throws `E_INSUFFICIENT_CREDITS` rather than charge less. */
  settle(jobId: string, actual: { seconds: number; width: number; height: number }): Promise<number>
  /** Releases a failed or cancelled job's hold. */
  release(jobId: string): Promise<void>
}

export const freeBilling: Billing = {
  hold: async () => 0,
  cover: async () => 0,
  settle: async () => 0,
  release: async () => {},
}
