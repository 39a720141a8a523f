/** How many webhook sends one process runs at once: in all, per destination and per account. */
export interface SlotLimits {
  total: number
  /** Per URL origin (`https://host:port`): a receiver that never answers holds only these. */
  perDestination: number
  /** Per account: one tenant's many dead hosts cannot take every slot either. */
  perAccount: number
}

/** Where a delivery goes, for the per-destination limit: the URL's origin (every path on one host counts together). */
export function destinationOf(url: string): string {
  try {
    return new URL(url).origin
  } catch {
    return url
  }
}

/**
 * The outbox's bookkeeping of sends in flight in this process. A slot is taken before a delivery is claimed
 * and given back once its attempt is recorded, so a hanging receiver occupies at most its own destination's
 * slots (and its account's) while everything else keeps flowing.
 */
export class DeliverySlots {
  private readonly byDestination = new Map<string, number>()
  private readonly byAccount = new Map<string, number>()
  private total = 0

  constructor(readonly limits: SlotLimits) {}

  /** True when no slot is free at all. */
  get full(): boolean {
    return this.total >= this.limits.total
  }

  /** Destinations and accounts with no free slot: the next claim leaves their deliveries where they are. */
  saturated(): { destinations: string[]; accounts: string[] } {
    const at = (m: Map<string, number>, limit: number) => [...m].filter(([, n]) => n >= limit).map(([k]) => k)
    return { destinations: at(this.byDestination, this.limits.perDestination), accounts: at(this.byAccount, this.limits.perAccount) }
  }

  /** Takes a slot for a send to `destination` for `account`; false (nothing taken) when any limit is reached. */
  take(destination: string, account: string): boolean {
    if (this.full || (this.byDestination.get(destination) ?? 0) >= this.limits.perDestination || (this.byAccount.get(account) ?? 0) >= this.limits.perAccount)
      return false
    bump(this.byDestination, destination, 1)
    bump(this.byAccount, account, 1)
    this.total++
    return true
  }

  give(destination: string, account: string): void {
    bump(this.byDestination, destination, -1)
    bump(this.byAccount, account, -1)
    this.total--
  }
}

function bump(m: Map<string, number>, key: string, by: number): void {
  const n = (m.get(key) ?? 0) + by
  if (n > 0) m.set(key, n)
  else m.delete(key)
}
