import type { AiTask } from '../../core/index.js'
import type { Principal } from '../accounts/keys.js'
import type { AiJobRecord } from '../api-types.js'
import { fileUrl, type ServiceConfig } from '../config.js'
import { nowIso, type Db } from '../db/db.js'
import { inject, injectable } from '../composition/di.js'
import { ServiceError } from '../errors.js'
import { uuidv7 } from '../lib/ids.js'
import { TOKENS } from '../composition/tokens.js'

/** A row's kind: an AI task, or `image` for a Create API text-to-image (service/create/), which /v1 lists elsewhere. */
export type AiJobKind = AiTask | 'image'

type Row = {
  id: string
  account_id: string
  key_id: string
  sandbox: number
  kind: AiJobKind
  status: AiJobRecord['status']
  model: string
  provider: string | null
  request: string
  callback: string | null
  storage_key: string | null
  files: string | null
  result_text: string | null
  words: string | null
  duration: number | null
  credits_used: number
  error: string | null
  created_at: string
  updated_at: string
}
/** A job with what the runner needs beside its public record. */
export type AiJob = Omit<AiJobRecord, 'kind'> & { kind: AiJobKind; principal: Principal; request: Record<string, unknown>; callback: string | null }
/** What a finished job stored: its main file, more files by name, text, words, duration. */
export interface AiOutcome {
  key?: string
  files?: Record<string, string>
  text?: string
  words?: AiJobRecord['words']
  duration?: number
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** AI jobs' rows, per account and environment (a sandbox key sees sandbox jobs only; others read as missing). */
@injectable()
export class AiJobStore {
  constructor(
    @inject(TOKENS.Db) private readonly db: Db,
    @inject(TOKENS.Config) private readonly config: ServiceConfig,
  ) {}

  async create(p: Principal, kind: AiJobKind, model: string, request: Record<string, unknown>, callback?: string): Promise<string> {
    const id = uuidv7()
    const now = nowIso()
    await this.db.run(
      `INSERT INTO ai_jobs (id, account_id, key_id, sandbox, kind, status, model, request, callback, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, 'queued', ?, ?, ?, ?, ?)`,
      [id, p.accountId, p.keyId, p.sandbox, kind, model, JSON.stringify(request), callback ?? null, now, now],
    )
    return id
  }

  async get(p: Principal, kind: AiTask, id: string): Promise<AiJob> {
    const job = UUID.test(id) ? await this.byId(id) : undefined
    if (!job || job.kind !== kind || job.principal.accountId !== p.accountId || job.principal.sandbox !== p.sandbox) {
      throw new ServiceError('E_NOT_FOUND', `no ${kind} job ${id}`)
    }
    return job
  }

  async list(p: Principal, kind: AiTask, limit: number): Promise<AiJob[]> {
    const rows = await this.db.all<Row>('SELECT * FROM ai_jobs WHERE account_id = ? AND sandbox = ? AND kind = ? ORDER BY created_at DESC, id DESC LIMIT ?', [
      p.accountId,
      p.sandbox,
      kind,
      limit,
    ])
    return rows.map((r) => this.toJob(r))
  }

  async byId(id: string): Promise<AiJob | undefined> {
    const row = await this.db.get<Row>('SELECT * FROM ai_jobs WHERE id = ?', [id])
    return row && this.toJob(row)
  }

  async remove(id: string): Promise<void> {
    await this.db.run('DELETE FROM ai_jobs WHERE id = ?', [id])
  }

  /** Jobs to (re)start: queued, or left processing by a process that stopped. */
  async unfinished(): Promise<string[]> {
    return (await this.db.all<{ id: string }>("SELECT id FROM ai_jobs WHERE status IN ('queued', 'processing') ORDER BY created_at")).map((r) => r.id)
  }

  /** Runs `fn` in one transaction: an ending (charge or release, status) and its event commit together. */
  transaction<T>(fn: () => Promise<T>): Promise<T> {
    return this.db.transaction(fn)
  }

  /** Runs `fn` as a savepoint of that transaction: its failure rolls back alone (`Sql.savepoint`). */
  savepoint<T>(fn: () => Promise<T>): Promise<T> {
    return this.db.savepoint(fn)
  }

  async processing(id: string, provider: string): Promise<void> {
    await this.db.run("UPDATE ai_jobs SET status = 'processing', provider = ?, updated_at = ? WHERE id = ?", [provider, nowIso(), id])
  }

  async complete(id: string, out: AiOutcome, credits: number): Promise<void> {
    await this.db.run(
      `UPDATE ai_jobs SET status = 'complete', storage_key = ?, files = ?, result_text = ?, words = ?, duration = ?, credits_used = ?, error = NULL,
       updated_at = ? WHERE id = ?`,
      [
        out.key ?? null,
        JSON.stringify(out.files ?? {}),
        out.text ?? null,
        out.words ? JSON.stringify(out.words) : null,
        out.duration ?? null,
        credits,
        nowIso(),
        id,
      ],
    )
  }

  async failed(id: string, error: string): Promise<void> {
    await this.db.run("UPDATE ai_jobs SET status = 'failed', error = ?, updated_at = ? WHERE id = ?", [error, nowIso(), id])
  }

  private toJob(r: Row): AiJob {
    const files = Object.fromEntries(Object.entries(JSON.parse(r.files ?? '{}') as Record<string, string>).map(([k, key]) => [k, fileUrl(this.config, key)]))
    return {
      id: r.id,
      kind: r.kind,
      status: r.status,
      model: r.model,
      provider: r.provider,
      url: r.storage_key ? fileUrl(this.config, r.storage_key) : null,
      files,
      text: r.result_text,
      words: r.words ? JSON.parse(r.words) : null,
      duration: r.duration,
      credits_used: Number(r.credits_used),
      error: r.error,
      created_at: r.created_at,
      updated_at: r.updated_at,
      principal: { accountId: r.account_id, keyId: r.key_id, sandbox: !!r.sandbox, admin: false },
      request: JSON.parse(r.request),
      callback: r.callback,
    }
  }
}

/** The public record of a job, as /v1 shows it (its routes read only the kinds they name, so `kind` is one of theirs). */
export const aiJobRecord = ({ principal: _p, request: _r, callback: _c, kind, ...record }: AiJob): AiJobRecord => ({
  ...record,
  kind: kind as AiJobRecord['kind'],
})
