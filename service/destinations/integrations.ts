import * as v from 'valibot'
import type { ServiceConfig } from '../config.js'
import { nowIso, type Db } from '../db/db.js'
import { inject, injectable } from '../composition/di.js'
import { maskSecret } from '../lib/redact.js'
import { TOKENS } from '../composition/tokens.js'
import { checkTargetUrl, parseBody } from '../lib/validate.js'
import { S3OptionsSchema } from './schema.js'
import { SecretBox } from './secret-box.js'

const noNul = v.check((s: string) => !s.includes('\u0000'), 'must not contain NUL characters')

/** `PUT /v1/integrations/s3` body: the credentials `output.destinations` of provider `s3` copy with. */
export const S3IntegrationSchema = v.strictObject({
  access_key_id: v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(128), noNul),
  secret_access_key: v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(256), noNul),
  /** The default region of the account's buckets (a destination's own `region` wins). */
  region: v.optional(S3OptionsSchema.entries.region.wrapped),
  /** An S3-compatible service (MinIO, R2, …) instead of AWS; a destination's own `endpoint` wins. */
  endpoint: v.optional(S3OptionsSchema.entries.endpoint.wrapped),
})
export type S3IntegrationInput = v.InferOutput<typeof S3IntegrationSchema>

export interface S3Credentials {
  accessKeyId: string
  secretAccessKey: string
  region?: string
  endpoint?: string
}

/** The integration as its owner sees it: the secret masked to its last characters, never returned. */
export interface S3IntegrationShown {
  provider: 's3'
  access_key_id: string
  secret_access_key: string
  region: string | null
  endpoint: string | null
  /** Whether the secret is encrypted at rest (the server has `REELFORGE_SECRET_KEY`). */
  encrypted: boolean
  updated_at: string
}

interface Settings {
  access_key_id: string
  region?: string
  endpoint?: string
  /** The secret's last characters, shown masked without decrypting it. */
  hint: string
}
type Row = { settings: string; secret: string; updated_at: string }

/**
 * Account-level integrations: credentials reelforge uses on the account's behalf (today S3, for
 * `output.destinations`), one per account and provider. The secret is sealed (`SecretBox`) before it is
 * stored and opened only to copy a render.
 */
@injectable()
export class IntegrationStore {
  private readonly box: SecretBox

  constructor(
    @inject(TOKENS.Db) private readonly db: Db,
    @inject(TOKENS.Config) private readonly config: ServiceConfig,
  ) {
    this.box = new SecretBox(config.secretKey)
  }

  /** Sets the account's S3 credentials (400 naming the field; an endpoint into a private network is refused). */
  async setS3(accountId: string, input: unknown): Promise<S3IntegrationShown> {
    const body = parseBody(S3IntegrationSchema, input)
    await checkTargetUrl('endpoint', body.endpoint, this.config.network)
    const settings: Settings = { access_key_id: body.access_key_id, region: body.region, endpoint: body.endpoint, hint: maskSecret(body.secret_access_key) }
    const now = nowIso()
    await this.db.run(
      `INSERT INTO integrations (account_id, provider, settings, secret, created_at, updated_at) VALUES (?, 's3', ?, ?, ?, ?)
        ON CONFLICT (account_id, provider) DO UPDATE SET settings = excluded.settings, secret = excluded.secret, updated_at = excluded.updated_at`,
      [accountId, JSON.stringify(settings), this.box.seal(body.secret_access_key, aad(accountId)), now, now],
    )
    return (await this.shownS3(accountId))!
  }

  async shownS3(accountId: string): Promise<S3IntegrationShown | undefined> {
    const row = await this.row(accountId)
    if (!row) return undefined
    const s = JSON.parse(row.settings) as Settings
    return {
      provider: 's3',
      access_key_id: s.access_key_id,
      secret_access_key: s.hint,
      region: s.region ?? null,
      endpoint: s.endpoint ?? null,
      encrypted: SecretBox.sealed(row.secret),
      updated_at: row.updated_at,
    }
  }

  async hasS3(accountId: string): Promise<boolean> {
    return !!(await this.db.get('SELECT 1 AS one FROM integrations WHERE account_id = ? AND provider = ?', [accountId, 's3']))
  }

  /** The credentials to copy with; undefined when none are set. Throws (a message for the API) when the secret does not open. */
  async s3Credentials(accountId: string): Promise<S3Credentials | undefined> {
    const row = await this.row(accountId)
    if (!row) return undefined
    const s = JSON.parse(row.settings) as Settings
    return { accessKeyId: s.access_key_id, secretAccessKey: this.box.open(row.secret, aad(accountId)), region: s.region, endpoint: s.endpoint }
  }

  async removeS3(accountId: string): Promise<boolean> {
    return (await this.db.run('DELETE FROM integrations WHERE account_id = ? AND provider = ?', [accountId, 's3'])) > 0
  }

  private row(accountId: string): Promise<Row | undefined> {
    return this.db.get<Row>('SELECT settings, secret, updated_at FROM integrations WHERE account_id = ? AND provider = ?', [accountId, 's3'])
  }
}

/** What a sealed secret is bound to: a value moved onto another account's row does not decrypt. */
const aad = (accountId: string) => `integration:${accountId}:s3`
