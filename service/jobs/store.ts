import { uuidv7 } from '../lib/ids.js'
import { inject, injectable } from '../composition/di.js'
import type { Warning } from '../../core/index.js'
import { nowIso, type Db } from '../db/db.js'
import type { DestinationRecord, JobStage, JobStatus, RenderStatusRecord } from '../api-types.js'
import { destinationsOf, unsentRecords } from '../destinations/schema.js'
import { FAIR_CLAIM_SQL, PG_CLAIM_LOCK_SQL, TAKE_TURN_SQL } from './fair-claim.js'
import { publicIssues, publicText } from '../lib/public-text.js'
import { TOKENS } from '../composition/tokens.js'
import { logger } from '../log.js'

const log = logger('jobs')

export type { JobStage, JobStatus }
export type JobKind = 'render' | 'stitch'
/** Which way `offset.y` counts in the job's edit: `down` (the seed's /v1) or `up` (Shotstack's). */
export type YAxis = 'down' | 'up'
/** The API a job came through: its status and callbacks take that API's shape. */
export type JobApi = 'v1' | 'shotstack'
/** How a job is rendered and reported, chosen at submission and stored with it. */
export interface JobOptions {
  yAxis?: YAxis
  api?: JobApi
  /**
   * Time segments the render is split into over the workers (BullMQ back end): decided by the front end that took
   * it, so any process that queues it again follows the same plan. Unset: not decided (jobs from before it was
   * stored), the queueing process's `segments`.
   */
  segments?: number
}

/** A job as stored. `request` is the validated request body (edit or stitch) as submitted. */
export interface Job {
  id: string
  accountId: string
  keyId: string
  kind: JobKind
  status: JobStatus
  stage: JobStage | null
  progress: number
  request: unknown
  callback: string | null
  sandbox: boolean
  url: string | null
  poster: string | null
  thumbnail: string | null
  duration: number | null
  creditsUsed: number
  error: string | null
  warnings: Warning[]
  attempts: number
  leaseOwner: string | null
  leaseUntil: number | null
  cancelRequested: boolean
  createdAt: string
  updatedAt: string
  completedAt: string | null
  yAxis: YAxis
  api: JobApi
  /** How the copies to `output.destinations` went, recorded when the job completed (null before, or without any). */
  destinations: DestinationRecord[] | null
  /** Its split over the workers, decided at submission (`JobOptions.segments`); null when not decided. */
  segments: number | null
}

/** The public status record of `GET /v1/render/{id}`. */
export function toStatus(job: Job): RenderStatusRecord {
  return {
    id: job.id,
    status: job.status,
    // A failed job keeps the stage it failed in; a finished or waiting one has none.
    stage: job.status === 'PROCESSING' || job.status === 'FAILED' ? job.stage : null,
    progress: job.status === 'COMPLETE' ? 1 : job.progress,
    url: job.url,
    poster: job.poster,
    thumbnail: job.thumbnail,
    duration: job.duration,
    credits_used: job.creditsUsed,
    error: job.error,
    warnings: job.warnings,
    ...destinationsField(job),
    created_at: job.createdAt,
    updated_at: job.updatedAt,
  }
}

/** `destinations` of the status: the recorded outcomes, else each destination waiting (or never sent); absent without any. */
function destinationsField(job: Job): { destinations?: DestinationRecord[] } {
  if (job.destinations) return { destinations: job.destinations }
  const list = destinationsOf(job.request)
  return list.length ? { destinations: unsentRecords(list, job.status === 'FAILED') } : {}
}

type Row = Record<string, unknown>
const fromRow = (r: Row): Job => ({
  id: r.id as string,
  accountId: r.account_id as string,
  keyId: r.key_id as string,
  kind: r.kind as JobKind,
  status: r.status as JobStatus,
  stage: (r.stage as JobStage) ?? null,
  progress: r.progress as number,
  request: JSON.parse(r.request as string),
  callback: (r.callback as string) ?? null,
  sandbox: r.sandbox === 1,
  url: (r.url as string) ?? null,
  poster: (r.poster as string) ?? null,
  thumbnail: (r.thumbnail as string) ?? null,
  duration: (r.duration as number) ?? null,
  creditsUsed: r.credits_used as number,
  error: (r.error as string) ?? null,
  warnings: r.warnings ? JSON.parse(r.warnings as string) : [],
  attempts: r.attempts as number,
  leaseOwner: (r.lease_owner as string) ?? null,
  leaseUntil: (r.lease_until as number) ?? null,
  cancelRequested: r.cancel_requested === 1,
  createdAt: r.created_at as string,
  updatedAt: r.updated_at as string,
  completedAt: (r.completed_at as string) ?? null,
  yAxis: r.y_axis === 'up' ? 'up' : 'down',
  api: r.api === 'shotstack' ? 'shotstack' : 'v1',
  destinations: r.destinations ? JSON.parse(r.destinations as string) : null,
  segments: (r.segments as number | null) ?? null,
})

/**
 * Render jobs in the service database. The table is also the in-process queue: a worker claims a QUEUED job
 * atomically (fairly between accounts) and holds a lease it renews by heartbeat. A job whose lease ran out (its process
 * died) goes back to QUEUED; every state change after a claim names the lease owner, so a worker that lost
 * its lease can never overwrite the result of the one that took over — a job is never rendered twice at once.
 */
@injectable()
export class JobStore {
  constructor(@inject(TOKENS.Db) private readonly db: Db) {}

  /** Runs `fn` in one transaction (a job and its credit hold, a completion and its charge). */
  transaction<T>(fn: () => Promise<T>): Promise<T> {
    return this.db.transaction(fn)
  }

  async create(
    fields: { accountId: string; keyId: string; kind: JobKind; request: unknown; callback?: string | null; sandbox: boolean } & JobOptions,
  ): Promise<Job> {
    const now = nowIso()
    const job: Job = {
      id: uuidv7(),
      accountId: fields.accountId,
      keyId: fields.keyId,
      kind: fields.kind,
      status: 'QUEUED',
      stage: null,
      progress: 0,
      request: fields.request,
      callback: fields.callback ?? null,
      sandbox: fields.sandbox,
      url: null,
      poster: null,
      thumbnail: null,
      duration: null,
      creditsUsed: 0,
      error: null,
      warnings: [],
      attempts: 0,
      leaseOwner: null,
      leaseUntil: null,
      cancelRequested: false,
      createdAt: now,
      updatedAt: now,
      completedAt: null,
      yAxis: fields.yAxis ?? 'down',
      api: fields.api ?? 'v1',
      destinations: null,
      segments: fields.segments ?? null,
    }
    // The row's other columns take the schema's defaults, which `job` spells out: no RETURNING to read back
    // and re-parse on the hot path of every submission (a test compares it with the stored row).
    await this.db.run(
      `INSERT INTO jobs (id, account_id, key_id, kind, status, request, callback, sandbox, created_at, updated_at, y_axis, api, segments)
        VALUES (@id, @accountId, @keyId, @kind, 'QUEUED', @request, @callback, @sandbox, @now, @now, @yAxis, @api, @segments)`,
      {
        id: job.id,
        accountId: job.accountId,
        keyId: job.keyId,
        kind: job.kind,
        request: JSON.stringify(fields.request),
        callback: job.callback,
        sandbox: job.sandbox,
        now,
        yAxis: job.yAxis,
        api: job.api,
        segments: job.segments,
      },
    )
    return job
  }

  async get(id: string): Promise<Job | undefined> {
    const row = await this.db.get<Row>('SELECT * FROM jobs WHERE id = ?', [id])
    return row && fromRow(row)
  }

  /**
   * A job of this account only (another account's job is indistinguishable from a missing one); with
   * `sandboxOnly`, a sandbox job only (what a sandbox key may see).
   */
  async getFor(id: string, accountId: string, sandboxOnly = false): Promise<Job | undefined> {
    const row = await this.db.get<Row>(`SELECT * FROM jobs WHERE id = ? AND account_id = ? ${sandboxOnly ? 'AND sandbox = 1' : ''}`, [id, accountId])
    return row && fromRow(row)
  }

  /**
   * Atomically takes the next queued job for `owner` with a lease until `now + leaseMs`: not the oldest, but
   * the fair pick of `FAIR_CLAIM_SQL` — live before sandbox, then round-robin over accounts, none with more than
   * `accountCap` renders running (unset: no cap).
   */
  async claim(owner: string, leaseMs: number, opts: { accountCap?: number } = {}): Promise<Job | undefined> {
    const cap = opts.accountCap && opts.accountCap > 0 ? opts.accountCap : 2 ** 31 - 1
    const row = await this.db.transaction(async () => {
      if (this.db.dialect === 'postgres') await this.db.get(PG_CLAIM_LOCK_SQL)
      const claimed = await this.db.get<Row>(FAIR_CLAIM_SQL, { owner, until: Date.now() + leaseMs, now: nowIso(), cap })
      if (claimed) await this.db.run(TAKE_TURN_SQL, [claimed.account_id])
      return claimed
    })
    return row && fromRow(row)
  }

  /** How many of this job's account's queued jobs of its kind (live or sandbox) were submitted before it. */
  async queuedAhead(job: Pick<Job, 'accountId' | 'sandbox' | 'createdAt'>): Promise<number> {
    const row = await this.db.get<{ n: number }>(
      `SELECT COUNT(*) AS n FROM jobs WHERE status = 'QUEUED' AND account_id = ? AND sandbox = ? AND created_at < ?`,
      [job.accountId, job.sandbox, job.createdAt],
    )
    return Number(row?.n ?? 0)
  }

  /**
   * Marks a job PROCESSING for an outside queue that owns leases itself (BullMQ): no lease expiry here.
   * Also for a job the queue restarted after a stall. False when it already ended or was cancelled.
   * `attempt`: the queue's own count of this job's starts. Every front end hears each start; the first to record
   * it gets true, the rest false (nothing changes), so one process reports it. Without it, attempts count up.
   */
  async start(id: string, owner: string, attempt?: number): Promise<boolean> {
    const counted = attempt === undefined
    const changed = await this.db.run(
      `UPDATE jobs SET status = 'PROCESSING', stage = 'fetching', progress = 0, lease_owner = @owner, lease_until = NULL, updated_at = @now,
          attempts = ${counted ? 'attempts + 1' : 'CASE WHEN attempts > @attempt THEN attempts ELSE @attempt END'}
        WHERE id = @id AND status IN ('QUEUED', 'PROCESSING') AND cancel_requested = 0 ${counted ? '' : "AND (status = 'QUEUED' OR attempts < @attempt)"}`,
      { id, owner, now: nowIso(), ...(counted ? {} : { attempt }) },
    )
    return changed > 0
  }

  /** Jobs not yet ended (oldest first): what an outside queue must still know about. */
  async unfinished(limit = 1000): Promise<Job[]> {
    return (await this.db.all<Row>(`SELECT * FROM jobs WHERE status IN ('QUEUED', 'PROCESSING') ORDER BY created_at, rowid LIMIT ?`, [limit])).map(fromRow)
  }

  /** Renews the lease; false means it was lost (expired and taken, or the job was cancelled/finished). */
  async heartbeat(id: string, owner: string, leaseMs: number): Promise<boolean> {
    return (
      (await this.db.run(`UPDATE jobs SET lease_until = @until WHERE id = @id AND lease_owner = @owner AND status = 'PROCESSING'`, {
        id,
        owner,
        until: Date.now() + leaseMs,
      })) > 0
    )
  }

  async progress(id: string, owner: string, stage: JobStage, progress: number): Promise<void> {
    await this.db.run(
      `UPDATE jobs SET stage = @stage, progress = @progress, updated_at = @now WHERE id = @id AND lease_owner = @owner AND status = 'PROCESSING'`,
      {
        id,
        owner,
        stage,
        progress: Math.round(progress * 1000) / 1000,
        now: nowIso(),
      },
    )
  }

  async complete(
    id: string,
    owner: string,
    result: {
      url: string
      poster?: string
      thumbnail?: string
      duration: number
      credits: number
      warnings: Warning[]
      destinations?: DestinationRecord[]
    },
  ): Promise<boolean> {
    const changed = await this.db.run(
      `UPDATE jobs SET status = 'COMPLETE', stage = NULL, progress = 1, url = @url, poster = @poster, thumbnail = @thumbnail,
          duration = @duration, credits_used = @credits, warnings = @warnings, destinations = @destinations, lease_owner = NULL, lease_until = NULL, updated_at = @now, completed_at = @now
        WHERE id = @id AND lease_owner = @owner AND status = 'PROCESSING'`,
      {
        id,
        owner,
        url: result.url,
        poster: result.poster ?? null,
        thumbnail: result.thumbnail ?? null,
        duration: result.duration,
        credits: result.credits,
        warnings: JSON.stringify(publicIssues(result.warnings)),
        destinations: result.destinations ? JSON.stringify(result.destinations) : null,
        now: nowIso(),
      },
    )
    return changed > 0
  }

  /**
   * Fails a job held by `owner` (or any queued/processing job when `owner` is null). Its error and warnings
   * are stored as clients see them, without server paths; the full error goes to the log.
   */
  async fail(id: string, owner: string | null, fullError: string, warnings: Warning[] = []): Promise<boolean> {
    const error = publicText(fullError, (full) => log.warn(`job ${id} failed: ${full}`))
    warnings = publicIssues(warnings)
    const changed = await this.db.run(
      `UPDATE jobs SET status = 'FAILED', stage = COALESCE(stage, 'queued'), error = @error, warnings = @warnings, lease_owner = NULL, lease_until = NULL, updated_at = @now, completed_at = @now
        WHERE id = @id AND (lease_owner = @owner OR CAST(@owner AS TEXT) IS NULL) AND status IN ('QUEUED', 'PROCESSING')`,
      { id, owner, error, warnings: JSON.stringify(warnings), now: nowIso() },
    )
    return changed > 0
  }

  /**
   * Puts a job `owner` holds back in the queue because its process is stopping (not a crash: the attempt is not
   * counted). Another process, or this one's next start, renders it again from the beginning.
   */
  async release(id: string, owner: string): Promise<boolean> {
    const changed = await this.db.run(
      `UPDATE jobs SET status = 'QUEUED', stage = NULL, progress = 0, attempts = CASE WHEN attempts > 0 THEN attempts - 1 ELSE 0 END, lease_owner = NULL, lease_until = NULL, updated_at = @now
        WHERE id = @id AND lease_owner = @owner AND status = 'PROCESSING'`,
      { id, owner, now: nowIso() },
    )
    return changed > 0
  }

  /** Puts back jobs whose lease expired (their worker died); returns them with their attempt counts. */
  requeueExpired(): Promise<{ id: string; attempts: number }[]> {
    return this.db.all(
      `UPDATE jobs SET status = 'QUEUED', stage = NULL, progress = 0, lease_owner = NULL, lease_until = NULL, updated_at = @now
        WHERE status = 'PROCESSING' AND lease_until < @now_ms RETURNING id, attempts`,
      { now: nowIso(), now_ms: Date.now() },
    )
  }

  /** Marks a job for cancellation; true when it was still queued or running. */
  async requestCancel(id: string, accountId: string): Promise<boolean> {
    const changed = await this.db.run(
      `UPDATE jobs SET cancel_requested = 1, updated_at = @now WHERE id = @id AND account_id = @account AND status IN ('QUEUED', 'PROCESSING')`,
      { id, account: accountId, now: nowIso() },
    )
    return changed > 0
  }

  async cancelRequested(id: string): Promise<boolean> {
    return (await this.db.get<{ cancel_requested: number }>('SELECT cancel_requested FROM jobs WHERE id = ?', [id]))?.cancel_requested === 1
  }

  /**
   * An account's jobs, newest first; `before` (a `created_at`) pages back; `sandboxOnly`: sandbox jobs only.
   * A page never ends inside a millisecond: the jobs sharing the `limit`-th one's `created_at` all come with
   * it (so a page may hold a few more than `limit`), else the next page, `created_at < before`, skipped them.
   */
  async list(accountId: string, opts: { limit: number; status?: JobStatus; before?: string; sandboxOnly?: boolean }): Promise<Job[]> {
    const where = ['account_id = @account']
    if (opts.sandboxOnly) where.push('sandbox = 1')
    if (opts.status) where.push('status = @status')
    if (opts.before) where.push('created_at < @before')
    const filter = where.join(' AND ')
    const last = `SELECT created_at FROM jobs WHERE ${filter} ORDER BY created_at DESC LIMIT 1 OFFSET @offset`
    const rows = await this.db.all<Row>(`SELECT * FROM jobs WHERE ${filter} AND created_at >= COALESCE((${last}), '') ORDER BY created_at DESC, rowid DESC`, {
      account: accountId,
      status: opts.status ?? null,
      before: opts.before ?? null,
      offset: opts.limit - 1,
    })
    return rows.map(fromRow)
  }

  async queued(): Promise<number> {
    return (await this.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM jobs WHERE status = 'QUEUED'`))!.n
  }
}
