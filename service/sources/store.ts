import type { Principal } from '../accounts/keys.js'
import type { SourceRecord } from '../api-types.js'
import { fileUrl, type ServiceConfig } from '../config.js'
import { nowIso, type Db } from '../db/db.js'
import { inject, injectable } from '../di.js'
import { ServiceError } from '../errors.js'
import { uuidv7 } from '../ids.js'
import type { Storage } from '../storage/storage.js'
import { TOKENS } from '../tokens.js'
import type { Sniffed } from './sniff.js'

export type SourceStatus = SourceRecord['status']
// A row holds the record's columns (booleans as integers) and what only the service sees.
type Row = Omit<SourceRecord, 'url' | 'has_audio'> & {
  account_id: string
  sandbox: number
  storage_key: string | null
  has_audio: number
  callback: string | null
}
/** A source row with what the importer needs beside its public record. */
export type Source = SourceRecord & { accountId: string; sandbox: boolean; callback: string | null; key: string | null }

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
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
  ) {}

  /** A new source waiting for its import. */
  async create(principal: Principal, input: { url: string | null; callback?: string }): Promise<Source> {
    const id = uuidv7()
    const now = nowIso()
    await this.db.run('INSERT INTO sources (id, account_id, sandbox, status, input_url, callback, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)', [
      id,
      principal.accountId,
      principal.sandbox,
      'queued',
      input.url,
      input.callback ?? null,
      now,
      now,
    ])
    return (await this.byId(id))!
  }

  async get(principal: Principal, id: string): Promise<Source> {
    const source = UUID.test(id) ? await this.byId(id) : undefined
    if (!source || source.accountId !== principal.accountId || source.sandbox !== principal.sandbox) throw notFound(id)
    return source
  }

  /** Newest first, optionally by status and type, before a `created_at` (paging). */
  async list(principal: Principal, q: { status?: SourceStatus; type?: string; before?: string; limit: number }): Promise<Source[]> {
    const where = ['account_id = ?', 'sandbox = ?']
    const args: unknown[] = [principal.accountId, principal.sandbox]
    if (q.status) where.push('status = ?'), args.push(q.status)
    if (q.type) where.push('type = ?'), args.push(q.type)
    if (q.before) where.push('created_at < ?'), args.push(q.before)
    const rows = await this.db.all<Row>(`SELECT * FROM sources WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT ?`, [...args, q.limit])
    return rows.map((r) => this.toSource(r))
  }

  /** Deletes the row and the stored file: the caller's own only. */
  async remove(principal: Principal, id: string): Promise<void> {
    const source = await this.get(principal, id)
    if (source.key) await this.storage.remove(source.key)
    await this.db.run('DELETE FROM sources WHERE id = ?', [id])
  }

  /** Bytes an account holds (ready sources and imports under way), for its quota. */
  async usedBytes(accountId: string): Promise<number> {
    const row = await this.db.get<{ n: number | null }>("SELECT SUM(bytes) AS n FROM sources WHERE account_id = ? AND status <> 'failed'", [accountId])
    return Number(row?.n ?? 0)
  }

  async byId(id: string): Promise<Source | undefined> {
    const row = await this.db.get<Row>('SELECT * FROM sources WHERE id = ?', [id])
    return row && this.toSource(row)
  }

  /** Sources an import should (re)start for: queued ones and those a stopped process left importing. */
  async unfinished(): Promise<string[]> {
    return (await this.db.all<{ id: string }>("SELECT id FROM sources WHERE status IN ('queued', 'importing') ORDER BY created_at")).map((r) => r.id)
  }

  async importing(id: string): Promise<void> {
    await this.db.run("UPDATE sources SET status = 'importing', updated_at = ? WHERE id = ?", [nowIso(), id])
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
    return {
      id: r.id,
      status: r.status,
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
      error: r.error,
      created_at: r.created_at,
      updated_at: r.updated_at,
      accountId: r.account_id,
      sandbox: !!r.sandbox,
      callback: r.callback,
      key: r.storage_key,
    }
  }
}
