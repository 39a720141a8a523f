import type { Principal } from '../accounts/keys.js'
import { fileUrl, type ServiceConfig } from '../config.js'
import { nowIso, type Db } from '../db/db.js'
import { inject, injectable } from '../composition/di.js'
import { ServiceError } from '../errors.js'
import { uuidv7 } from '../lib/ids.js'
import type { Job, JobStore } from '../jobs/store.js'
import type { Storage } from '../storage/storage.js'
import { TOKENS } from '../composition/tokens.js'

export type AssetKind = 'video' | 'poster' | 'thumbnail'
export interface ServedAsset {
  id: string
  accountId: string
  renderId: string
  kind: AssetKind
  filename: string
  url: string
  status: 'ready' | 'deleted'
  createdAt: string
  updatedAt: string
}

type Row = Record<string, unknown>
const KEY_OF_URL = /\/v1\/files\/(.+)$/

/**
 * A finished render's files as hosted assets with ids of their own (Shotstack's Serve API): the output keeps
 * the render's id, its poster and thumbnail get new ones. Rows are made the first time a render's assets (or its
 * video, by the render's id) are asked for, so renders that nobody serves cost nothing; deleting one removes its
 * file from storage.
 */
@injectable()
export class ServedAssets {
  constructor(
    @inject(TOKENS.Db) private readonly db: Db,
    @inject(TOKENS.Jobs) private readonly jobs: JobStore,
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Config) private readonly config: ServiceConfig,
  ) {}

  /** The assets of one of the caller's finished renders (none while it is not COMPLETE). */
  async ofRender(p: Principal, renderId: string): Promise<ServedAsset[]> {
    const job = await this.jobs.getFor(renderId, p.accountId, p.sandbox)
    if (!job) throw new ServiceError('E_NOT_FOUND', `no render ${renderId}`)
    if (job.status !== 'COMPLETE') return []
    await this.record(job)
    // The render itself first (a client taking `data[0]` gets the video), then its poster and thumbnail.
    const rows = await this.db.all<Row>(
      "SELECT * FROM served_assets WHERE render_id = ? ORDER BY CASE kind WHEN 'video' THEN 0 WHEN 'poster' THEN 1 ELSE 2 END",
      [renderId],
    )
    return rows.map((r) => this.toAsset(r))
  }

  async get(p: Principal, id: string): Promise<ServedAsset> {
    const find = () => this.db.get<Row>('SELECT * FROM served_assets WHERE id = ? AND account_id = ?', [id, p.accountId])
    let row = await find()
    if (!row) {
      // The render's own asset has the render's id: asked for by it before the render's assets were listed.
      const job = await this.jobs.getFor(id, p.accountId, p.sandbox)
      if (job?.status === 'COMPLETE') {
        await this.record(job)
        row = await find()
      }
    }
    // A sandbox key sees sandbox work only, as everywhere else.
    if (!row || (p.sandbox && row.sandbox !== 1)) throw new ServiceError('E_NOT_FOUND', `no asset ${id}`)
    return this.toAsset(row)
  }

  /** Removes the file; the asset stays listed as `deleted` (as Shotstack's do). */
  async remove(p: Principal, id: string): Promise<void> {
    const asset = await this.get(p, id)
    if (asset.status === 'deleted') return
    const key = KEY_OF_URL.exec(asset.url)?.[1]
    if (key) await this.storage.remove(key)
    await this.db.run('UPDATE served_assets SET status = ?, updated_at = ? WHERE id = ?', ['deleted', nowIso(), id])
  }

  private async record(job: Job): Promise<void> {
    const files: [AssetKind, string | null][] = [
      ['video', job.url],
      ['poster', job.poster],
      ['thumbnail', job.thumbnail],
    ]
    for (const [kind, url] of files) {
      const key = url && KEY_OF_URL.exec(url)?.[1]
      if (!key) continue
      // Made when the render finished, however much later its assets are first asked for.
      const now = job.completedAt ?? nowIso()
      await this.db.run(
        `INSERT INTO served_assets (id, account_id, sandbox, render_id, kind, storage_key, status, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, 'ready', ?, ?) ON CONFLICT (render_id, kind) DO NOTHING`,
        [kind === 'video' ? job.id : uuidv7(), job.accountId, job.sandbox ? 1 : 0, job.id, kind, key, now, now],
      )
    }
  }

  private toAsset(r: Row): ServedAsset {
    const key = r.storage_key as string
    return {
      id: r.id as string,
      accountId: r.account_id as string,
      renderId: r.render_id as string,
      kind: r.kind as AssetKind,
      filename: key.split('/').pop() ?? key,
      url: fileUrl(this.config, key),
      status: r.status === 'deleted' ? 'deleted' : 'ready',
      createdAt: r.created_at as string,
      updatedAt: r.updated_at as string,
    }
  }
}
