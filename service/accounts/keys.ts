import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto'
import { inject, injectable } from '../composition/di.js'
import { nowIso, type Db } from '../db/db.js'
import { TOKENS } from '../composition/tokens.js'

/** Who is calling: the account and the key it used. */
export interface Principal {
  accountId: string
  keyId: string
  sandbox: boolean
  admin: boolean
}

export interface KeyRecord extends Principal {
  prefix: string
  createdAt: string
  revokedAt: string | null
}

const sha256 = (s: string) => createHash('sha256').update(s).digest()
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
function randomToken(length: number): string {
  const bytes = randomBytes(length * 2)
  let out = ''
  // Rejection sampling keeps every character equally likely.
  for (let i = 0; i < bytes.length && out.length < length; i++) if (bytes[i]! < 248) out += ALPHABET[bytes[i]! % 62]
  return out.length === length ? out : out + randomToken(length - out.length)
}

/**
 * API keys, stored as SHA-256 hashes only: the clear key is shown once at creation. Lookup is by hash (a
 * unique index), then the stored hash is compared with `timingSafeEqual`, so timing never depends on how
 * much of a guessed key matched. Verified keys are cached briefly; revoking clears the cache.
 */
@injectable()
export class KeyStore {
  private readonly cache = new Map<string, { principal: Principal | null; until: number }>()

  constructor(@inject(TOKENS.Db) private readonly db: Db) {}

  /**
   * Creates a key (and a new account unless `accountId` is given); returns the clear key once, and for a new
   * account its callback signing secret, also shown only this once.
   */
  async create(opts: { sandbox?: boolean; admin?: boolean; accountId?: string } = {}): Promise<{ key: string; record: KeyRecord; signingSecret?: string }> {
    const sandbox = !!opts.sandbox
    const key = `rf_${sandbox ? 'test' : 'live'}_${randomToken(40)}`
    const id = randomUUID()
    const createdAt = nowIso()
    const accountId = opts.accountId ?? randomUUID()
    const signingSecret = opts.accountId ? undefined : `whsec_${randomBytes(24).toString('base64url')}`
    await this.db.transaction(async () => {
      if (!opts.accountId) await this.db.run('INSERT INTO accounts (id, created_at, signing_secret) VALUES (?, ?, ?)', [accountId, createdAt, signingSecret])
      else if (!(await this.db.get('SELECT 1 FROM accounts WHERE id = ?', [accountId]))) throw new Error(`no account ${accountId}`)
      await this.db.run('INSERT INTO api_keys (id, account_id, hash, prefix, sandbox, admin, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [
        id,
        accountId,
        sha256(key).toString('hex'),
        key.slice(0, 12),
        sandbox,
        !!opts.admin,
        createdAt,
      ])
    })
    return { key, signingSecret, record: { accountId, keyId: id, sandbox, admin: !!opts.admin, prefix: key.slice(0, 12), createdAt, revokedAt: null } }
  }

  /** The principal for a presented key, or null. */
  async verify(presented: string): Promise<Principal | null> {
    const digest = sha256(presented)
    const hex = digest.toString('hex')
    const cached = this.cache.get(hex)
    if (cached && cached.until > Date.now()) return cached.principal
    const row = await this.db.get<{ id: string; account_id: string; hash: string; sandbox: number; admin: number; revoked_at: string | null }>(
      'SELECT id, account_id, hash, sandbox, admin, revoked_at FROM api_keys WHERE hash = ?',
      [hex],
    )
    const ok = !!row && timingSafeEqual(Buffer.from(row.hash, 'hex'), digest) && !row.revoked_at
    const principal = ok ? { accountId: row!.account_id, keyId: row!.id, sandbox: row!.sandbox === 1, admin: row!.admin === 1 } : null
    if (this.cache.size > 10_000) this.cache.clear()
    this.cache.set(hex, { principal, until: Date.now() + 5_000 })
    return principal
  }

  async list(accountId?: string): Promise<KeyRecord[]> {
    const rows = await (accountId
      ? this.db.all('SELECT * FROM api_keys WHERE account_id = ? ORDER BY created_at', [accountId])
      : this.db.all('SELECT * FROM api_keys ORDER BY created_at'))
    return rows.map((r) => ({
      accountId: r.account_id as string,
      keyId: r.id as string,
      sandbox: r.sandbox === 1,
      admin: r.admin === 1,
      prefix: r.prefix as string,
      createdAt: r.created_at as string,
      revokedAt: (r.revoked_at as string) ?? null,
    }))
  }

  async revoke(keyId: string): Promise<boolean> {
    const changed = (await this.db.run('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', [nowIso(), keyId])) > 0
    this.cache.clear()
    return changed
  }
}
