import type { Principal } from './keys.js'

/**
 * The wallet hook of the render path: hold an estimate at submission, settle the actual amount at the end,
 * release on failure. Until a wallet is configured, rendering is free (every amount 0).
 */
export interface Billing {
  /** Credits to hold for a job; throws a ServiceError (402) when the account cannot pay. */
  hold(principal: Principal, jobId: string, estimate: { seconds: number; width: number; height: number }): Promise<number>
  /** Charges what the finished job cost and releases the rest of its hold; returns the charge. */
  settle(jobId: string, actual: { seconds: number; width: number; height: number }): Promise<number>
  /** Releases a failed or cancelled job's hold. */
  release(jobId: string): Promise<void>
}

export const freeBilling: Billing = {
  hold: async () => 0,
  settle: async () => 0,
  release: async () => {},
}
