import type { Clock } from '../clock.js'
import type { Db } from '../db/db.js'
import { inject, injectable } from '../di.js'
import { TOKENS } from '../tokens.js'

const DAY = 24 * 60 * 60 * 1000

export type IdempotencyState = { kind: 'new' } | { kind: 'replay'; status: number; response: unknown } | { kind: 'in-progress' } | { kind: 'mismatch' }

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

  async begin(accountId: string, key: string, fingerprint: string): Promise<IdempotencyState> {
    const now = this.clock.now()
    await this.db.run('DELETE FROM idempotency WHERE created_at < ?', [now - DAY])
    // The insert decides who is first, also between processes: the loser reads the winner's row.
    const inserted = await this.db.run(
      'INSERT INTO idempotency (account_id, key, fingerprint, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (account_id, key) DO NOTHING',
      [accountId, key, fingerprint, now],
    )
    if (inserted) return { kind: 'new' }
    const row = await this.db.get<{ fingerprint: string; status: number | null; response: string | null }>(
      'SELECT fingerprint, status, response FROM idempotency WHERE account_id = ? AND key = ?',
      [accountId, key],
    )
    if (!row) return this.begin(accountId, key, fingerprint) // abandoned in between
    if (row.fingerprint !== fingerprint) return { kind: 'mismatch' }
    if (row.status === null) return { kind: 'in-progress' }
    return { kind: 'replay', status: row.status, response: JSON.parse(row.response!) }
  }

  async finish(accountId: string, key: string, status: number, response: unknown): Promise<void> {
    await this.db.run('UPDATE idempotency SET status = ?, response = ? WHERE account_id = ? AND key = ?', [status, JSON.stringify(response), accountId, key])
  }

  async abandon(accountId: string, key: string): Promise<void> {
    await this.db.run('DELETE FROM idempotency WHERE account_id = ? AND key = ? AND status IS NULL', [accountId, key])
  }
}
