import type { Clock } from './clock.js'
import type { Db } from './db.js'
import { inject, injectable } from './di.js'
import { TOKENS } from './tokens.js'

const DAY = 24 * 60 * 60 * 1000

export type IdempotencyState =
  | { kind: 'new' }
  | { kind: 'replay'; status: number; response: unknown }
  | { kind: 'in-progress' }
  | { kind: 'mismatch' }

/**
 * `Idempotency-Key` on POSTs (Stripe's rules): the first request with a key runs and its answer is kept for
 * 24 h; a repeat with the same body gets that answer again and spends nothing; a repeat with a different
 * body is refused; a repeat while the first still runs is told so. Server errors are not kept, so a retry
 * after one runs again.
 */
@injectable()
export class Idempotency {
  constructor(
    @inject(TOKENS.Db) private readonly db: Db,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  begin(accountId: string, key: string, fingerprint: string): IdempotencyState {
    const now = this.clock.now()
    return this.db.transaction((): IdempotencyState => {
      this.db.prepare('DELETE FROM idempotency WHERE created_at < ?').run(now - DAY)
      const row = this.db.prepare('SELECT fingerprint, status, response FROM idempotency WHERE account_id = ? AND key = ?').get(accountId, key) as { fingerprint: string; status: number | null; response: string | null } | undefined
      if (!row) {
        this.db.prepare('INSERT INTO idempotency (account_id, key, fingerprint, created_at) VALUES (?, ?, ?, ?)').run(accountId, key, fingerprint, now)
        return { kind: 'new' }
      }
      if (row.fingerprint !== fingerprint) return { kind: 'mismatch' }
      if (row.status === null) return { kind: 'in-progress' }
      return { kind: 'replay', status: row.status, response: JSON.parse(row.response!) }
    }).immediate()
  }

  finish(accountId: string, key: string, status: number, response: unknown): void {
    this.db.prepare('UPDATE idempotency SET status = ?, response = ? WHERE account_id = ? AND key = ?').run(status, JSON.stringify(response), accountId, key)
  }

  abandon(accountId: string, key: string): void {
    this.db.prepare('DELETE FROM idempotency WHERE account_id = ? AND key = ? AND status IS NULL').run(accountId, key)
  }
}
