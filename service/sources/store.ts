import type { Principal } from '../accounts/keys.js'
import type { SourceRecord } from '../api-types.js'
import { fileUrl, type ServiceConfig } from '../config.js'
import { nowIso, type Db } from '../db/db.js'
import { inject, injectable } from '../composition/di.js'
import { ServiceError } from '../errors.js'
import { uuidv7 } from '../lib/ids.js'
import { forgetMaterialized, type Storage } from '../storage/storage.js'
import { TOKENS } from '../composition/tokens.js'
import type { Rendition } from './rendition-schema.js'
import type { SourceRenditions } from './renditions.js'
import type { Sniffed } from './sniff.js'
import { STAGED_CLAIMED, STAGED_GRACE_MS, STAGED_UPLOAD, stagingKey } from './staged-upload.js'

export type SourceStatus = SourceRecord['status']
// A row holds the record's columns (booleans as integers) and what only the service sees.
type Row = Omit<SourceRecord, 'url' | 'has_audio' | 'renditions'> & {
  account_id: string
  sandbox: number
  storage_key: string | null
  has_audio: number
  callback: string | null
  upload_token: string | null
  upload_expires_at: string | null
}
/** A source row with what the importer needs beside its public record. */
export type Source = SourceRecord & { accountId: string; sandbox: boolean; callback: string | null; key: string | null; staged: boolean }

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
/** What an upload that never received its bytes says once its URL has expired. */
export const UPLOAD_EXPIRED = 'the upload URL expired before the file was sent'
const notFound = (id: string) => new ServiceError('E_NOT_FOUND', `no source ${id}`)

/**
 * Hosted sources, per account and environment (a sandbox key sees sandbox sources only; anything else reads
 * as missing). Holds rows only: the importer fills them, storage holds the bytes under `<id>/<file>`.
 */
@injectable()
export class SourceStore {
  constructor(
    @inject(TOKENS.Db) private readonly db: Db,
    @inject(TOKENS.Config) private readonly config: ServiceConfig,
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.SourceRenditions) private readonly renditions: SourceRenditions,
  ) {}

  /** A new source waiting for its import (`url`) or for its bytes (`upload`: the token's hash and expiry). */
  async create(
    principal: Principal,
    input: { url: string | null; callback?: string; filename?: string; renditions?: readonly Rendition[]; upload?: { tokenHash: string; expiresAt: string } },
  ): Promise<Source> {
    const id = uuidv7()
    const now = nowIso()
    const upload = input.upload ?? { tokenHash: null, expiresAt: null }
    await this.db.run(
      `INSERT INTO sources (id, account_id, sandbox, status, input_url, callback, filename, upload_token, upload_expires_at, created_at, updated_at)
       VALUES (?, ?, ?, 'queued', ?, ?, ?, ?, ?, ?, ?)`,
      [id, principal.accountId, principal.sandbox, input.url, input.callback ?? null, input.filename ?? null, upload.tokenHash, upload.expiresAt, now, now],
    )
    if (input.renditions?.length) await this.renditions.add(id, input.renditions)
    return (await this.byId(id))!
  }

  /** How long past a presigned URL's expiry its file may still land (and be looked for). */
  private grace = () => this.config.sources.uploadGraceMs ?? STAGED_GRACE_MS

  /** Takes an upload's one chance: true once, for the right token before it expires (the token is spent). */
  async claimUpload(id: string, tokenHash: string): Promise<boolean> {
    const now = nowIso()
    const changed = await this.db.run(
      "UPDATE sources SET status = 'importing', upload_token = NULL, updated_at = ? WHERE id = ? AND upload_token = ? AND status = 'queued' AND upload_expires_at > ?",
      [now, id, tokenHash, now],
    )
    return changed === 1
  }

  /** Uploads sent (or still to be sent) to a presigned bucket URL, until a while past their expiry. */
  async stagedUploads(): Promise<string[]> {
    const since = new Date(Date.now() - this.grace()).toISOString()
    const rows = await this.db.all<{ id: string }>("SELECT id FROM sources WHERE status = 'queued' AND upload_token = ? AND upload_expires_at > ?", [
      STAGED_UPLOAD,
      since,
    ])
    return rows.map((r) => r.id)
  }

  /** Takes a staged upload for import: true once, in whichever process asks first. */
  async claimStaged(id: string): Promise<boolean> {
    const changed = await this.db.run(
      "UPDATE sources SET status = 'importing', upload_token = ?, updated_at = ? WHERE id = ? AND upload_token = ? AND status = 'queued'",
      [STAGED_CLAIMED, nowIso(), id, STAGED_UPLOAD],
    )
    return changed === 1
  }

  /** Staged uploads already imported (or failed) whose URL may still take a PUT: the watch removes what lands. */
  async stagedLeftovers(): Promise<string[]> {
    const since = new Date(Date.now() - this.grace()).toISOString()
    const sql = "SELECT id FROM sources WHERE upload_token = ? AND status IN ('ready', 'failed') AND upload_expires_at > ?"
    return (await this.db.all<{ id: string }>(sql, [STAGED_CLAIMED, since])).map((r) => r.id)
  }

  async get(principal: Principal, id: string): Promise<Source> {
    const source = UUID.test(id) ? await this.byId(id) : undefined
    if (!source || source.accountId !== principal.accountId || source.sandbox !== principal.sandbox) throw notFound(id)
    return source
  }

  /**
   * Newest first, optionally by status and type, before a `created_at` (paging) — or, with `beforeId` too,
   * before that row in the order (a cursor that sources created in the same millisecond cannot slip past).
   */
  async list(principal: Principal, q: { status?: SourceStatus; type?: string; before?: string; beforeId?: string; limit: number }): Promise<Source[]> {
    const where = ['account_id = ?', 'sandbox = ?']
    const args: unknown[] = [principal.accountId, principal.sandbox]
    if (q.status) where.push('status = ?'), args.push(q.status)
    if (q.type) where.push('type = ?'), args.push(q.type)
    if (q.before && q.beforeId) where.push('(created_at < ? OR (created_at = ? AND id < ?))'), args.push(q.before, q.before, q.beforeId)
    else if (q.before) where.push('created_at < ?'), args.push(q.before)
    const rows = await this.db.all<Row>(`SELECT * FROM sources WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT ?`, [...args, q.limit])
    return this.withRenditions(rows.map((r) => this.toSource(r)))
  }

  /**
   * Deletes the row and the stored files (a staged upload's too): the caller's own only. This process's
   * cached copy of an object-storage file goes as well; other workers' caches are out of reach and keep
   * theirs until their cache directory is cleared (nothing links to it any more).
   */
  async remove(principal: Principal, id: string): Promise<void> {
    const source = await this.get(principal, id)
    if (source.key) await this.storage.remove(source.key)
    if (source.key) await forgetMaterialized(this.config.cacheDir, source.key)
    await this.storage.remove(stagingKey(id))
    await this.renditions.remove(id)
    await this.db.run('DELETE FROM sources WHERE id = ?', [id])
  }

  /** Bytes an account holds (ready sources and imports under way), for its quota. */
  async usedBytes(accountId: string): Promise<number> {
    const row = await this.db.get<{ n: number | null }>("SELECT SUM(bytes) AS n FROM sources WHERE account_id = ? AND status <> 'failed'", [accountId])
    return Number(row?.n ?? 0) + (await this.renditions.usedBytes(accountId))
  }

  async byId(id: string): Promise<Source | undefined> {
    const row = await this.db.get<Row>('SELECT * FROM sources WHERE id = ?', [id])
    return row && (await this.withRenditions([this.toSource(row)]))[0]
  }

  private async withRenditions(sources: Source[]): Promise<Source[]> {
    const renditions = await this.renditions.forSources(sources)
    return sources.map((s) => ({ ...s, renditions: renditions.get(s.id) ?? [] }))
  }

  /** Sources an import should (re)start for: queued ones and those a stopped process left importing. */
  async unfinished(): Promise<string[]> {
    // Staged uploads wait for their file in the bucket: the importer's watch finds them, not a restart.
    const sql = "SELECT id FROM sources WHERE status IN ('queued', 'importing') AND COALESCE(upload_token, '') <> ? ORDER BY created_at"
    return (await this.db.all<{ id: string }>(sql, [STAGED_UPLOAD])).map((r) => r.id)
  }

  async importing(id: string): Promise<void> {
    await this.db.run("UPDATE sources SET status = 'importing', updated_at = ? WHERE id = ?", [nowIso(), id])
  }

  /** Runs `fn` in one transaction: a source's ending and its event commit together. */
  transaction<T>(fn: () => Promise<T>): Promise<T> {
    return this.db.transaction(fn)
  }

  async ready(id: string, key: string, bytes: number, media: Sniffed): Promise<void> {
    await this.db.run(
      `UPDATE sources SET status = 'ready', storage_key = ?, bytes = ?, type = ?, content_type = ?, width = ?, height = ?, duration = ?, fps = ?,
       has_audio = ?, error = NULL, updated_at = ? WHERE id = ?`,
      [key, bytes, media.type, media.contentType, media.width, media.height, media.duration, media.fps, media.hasAudio, nowIso(), id],
    )
  }

  async failed(id: string, error: string): Promise<void> {
    await this.db.run("UPDATE sources SET status = 'failed', error = ?, bytes = NULL, updated_at = ? WHERE id = ?", [error, nowIso(), id])
  }

  private toSource(r: Row): Source {
    // An upload whose URL expired before any bytes came will never be ready: it reads as failed — a staged one only
    // once the watch has stopped looking (a large PUT begun in time may land a little after the expiry).
    const grace = r.upload_token === STAGED_UPLOAD ? this.grace() : 0
    const expired = r.status === 'queued' && r.upload_expires_at !== null && Date.parse(r.upload_expires_at) + grace <= Date.now()
    return {
      id: r.id,
      status: expired ? 'failed' : r.status,
      url: r.status === 'ready' && r.storage_key ? fileUrl(this.config, r.storage_key) : null,
      input_url: r.input_url,
      type: r.type,
      content_type: r.content_type,
      bytes: r.bytes === null ? null : Number(r.bytes),
      width: r.width,
      height: r.height,
      duration: r.duration,
      fps: r.fps,
      has_audio: !!r.has_audio,
      error: expired ? UPLOAD_EXPIRED : r.error,
      renditions: [],
      created_at: r.created_at,
      updated_at: r.updated_at,
      accountId: r.account_id,
      sandbox: !!r.sandbox,
      callback: r.callback,
      key: r.storage_key,
      staged: r.upload_token === STAGED_CLAIMED,
      filename: r.filename,
    }
  }
}
