import { createHash } from 'node:crypto'
import type { Clock } from '../lib/clock.js'
import type { Db } from '../db/db.js'
import { inject, injectable } from '../composition/di.js'
import { TOKENS } from '../composition/tokens.js'

const DAY = 24 * 60 * 60 * 1000

export type IdempotencyState = { kind: 'new' } | { kind: 'replay'; status: number; response: unknown } | { kind: 'in-progress' } | { kind: 'mismatch' }

/**
 * What a key's repeats must match: the method, the path and the parsed body, compared as Stripe compares
 * parameters — a client's retry may serialise it again with other key order, spacing or number spelling
 * (`1.0`), and it is still the same request; array order and every value count. A body nested too deep to
 * walk (which the handlers refuse anyway) is compared as sent.
 */
export function requestFingerprint(method: string, path: string, body: { text: string; value: unknown }): string {
  let canonical: string
  try {
    canonical = JSON.stringify(body.value, (_, v) => (v && typeof v === 'object' && !Array.isArray(v) ? sortedKeys(v) : v)) ?? ''
  } catch {
    canonical = `raw:${body.text}`
  }
  return createHash('sha256').update(`${method} ${path}\n`).update(canonical).digest('hex')
}

/** A copy with the keys in one order (own data properties, `__proto__` included, as JSON.parse made them). */
const sortedKeys = (o: object) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))

/**
 * `Idempotency-Key` on POSTs (Stripe's rules): the first request with a key runs and its answer is kept for
 * 24 h; a repeat of the same request (`requestFingerprint`) gets that answer again and spends nothing; a
 * repeat with a different body is refused; a repeat while the first still runs is told so. Server errors are
 * not kept, so a retry after one runs again.
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
