import type { Principal } from '../accounts/keys.js'
import { nowIso, type Db } from '../db/db.js'
import { inject, injectable } from '../composition/di.js'
import { uuidv7 } from '../lib/ids.js'
import { TOKENS } from '../composition/tokens.js'

/** One destination of a Serve transfer, as an asset of Shotstack's Serve API. */
export interface TransferAsset {
  id: string
  batchId: string
  accountId: string
  sandbox: boolean
  /** The client's `id` of the transfer (Shotstack's `renderId` of its assets). */
  transferId: string
  inputUrl: string
  /** The destination as the request wrote it (`{ provider, options? }`). */
  destination: { provider: string; [k: string]: unknown }
  provider: string
  status: 'importing' | 'ready' | 'failed' | 'deleted'
  url: string | null
  providerId: string | null
  storageKey: string | null
  filename: string | null
  error: string | null
  createdAt: string
  updatedAt: string
}

/** Where a finished copy went. */
export type Copied = Pick<TransferAsset, 'url' | 'providerId' | 'storageKey' | 'filename'>

type Row = Record<string, unknown>
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** The rows of Serve transfers: one per destination, grouped by batch (one request), per account and environment. */
@injectable()
export class TransferStore {
  constructor(@inject(TOKENS.Db) private readonly db: Db) {}

  /**
   * Records a transfer's destinations, `failed` (with why) where none can be sent. The first asset takes the
   * client's id when it is a UUID that no render or other asset has (as a render's video keeps the render's id),
   * so `GET /serve/…/assets/{id}` finds it; the others get ids of their own.
   */
  async create(p: Principal, input: { id: string; url: string; destinations: { destination: TransferAsset['destination']; error?: string }[] }) {
    const batchId = uuidv7()
    const now = nowIso()
    const wanted = input.id.toLowerCase()
    const first = UUID.test(wanted) && !(await this.taken(wanted)) ? wanted : undefined
    for (const [i, d] of input.destinations.entries()) {
      const values = [batchId, i, p.accountId, p.sandbox ? 1 : 0, input.id, input.url, JSON.stringify(d.destination), d.destination.provider]
      const insert = (id: string) =>
        this.db.run(
          `INSERT INTO transfer_assets (id, batch_id, position, account_id, sandbox, transfer_id, input_url, destination, provider, status, error, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, CAST(? AS TEXT), ?, ?) ON CONFLICT (id) DO NOTHING`,
          [id, ...values, d.error ? 'failed' : 'importing', d.error ?? null, now, now],
        )
      // Two transfers racing for the same id: the loser's asset gets an id of its own.
      if (!(i === 0 && first && (await insert(first)))) await insert(uuidv7())
    }
    return { batchId, assets: await this.ofBatch(batchId) }
  }

  ofBatch = async (batchId: string): Promise<TransferAsset[]> =>
    (await this.db.all<Row>('SELECT * FROM transfer_assets WHERE batch_id = ? ORDER BY position', [batchId])).map(toAsset)

  /** One of the caller's assets; a sandbox key sees sandbox work only, as everywhere else. */
  async find(p: Principal, id: string): Promise<TransferAsset | undefined> {
    const row = await this.db.get<Row>('SELECT * FROM transfer_assets WHERE id = ? AND account_id = ?', [id.toLowerCase(), p.accountId])
    return row && (!p.sandbox || row.sandbox === 1) ? toAsset(row) : undefined
  }

  /** Every asset of the caller's transfers with this client id, oldest first. */
  async ofTransfer(p: Principal, transferId: string): Promise<TransferAsset[]> {
    const rows = await this.db.all<Row>(
      `SELECT * FROM transfer_assets WHERE account_id = ? AND transfer_id = ? ${p.sandbox ? 'AND sandbox = 1' : ''} ORDER BY created_at, batch_id, position`,
      [p.accountId, transferId],
    )
    return rows.map(toAsset)
  }

  /** Batches with copies still to make (a process that stopped mid-transfer). */
  unfinished = async (): Promise<string[]> =>
    (await this.db.all<{ batch_id: string }>("SELECT DISTINCT batch_id FROM transfer_assets WHERE status = 'importing'")).map((r) => r.batch_id)

  /** Records a copy; false when the asset was deleted meanwhile (its copy is then the caller's to remove). */
  ready = async (id: string, c: Copied): Promise<boolean> =>
    (await this.db.run(
      `UPDATE transfer_assets SET status = 'ready', url = ?, provider_id = ?, storage_key = ?, filename = ?, updated_at = ? WHERE id = ? AND status = 'importing'`,
      [c.url, c.providerId, c.storageKey, c.filename, nowIso(), id],
    )) > 0

  failed = (id: string, error: string): Promise<number> =>
    this.db.run("UPDATE transfer_assets SET status = 'failed', error = ?, updated_at = ? WHERE id = ? AND status = 'importing'", [error, nowIso(), id])

  deleted = (id: string): Promise<number> => this.db.run("UPDATE transfer_assets SET status = 'deleted', updated_at = ? WHERE id = ?", [nowIso(), id])

  /** Whether an id already names an asset or a render (whose video asset takes the render's id). */
  private async taken(id: string): Promise<boolean> {
    for (const table of ['transfer_assets', 'served_assets', 'jobs']) if (await this.db.get(`SELECT 1 AS one FROM ${table} WHERE id = ?`, [id])) return true
    return false
  }
}

const toAsset = (r: Row): TransferAsset => ({
  id: r.id as string,
  batchId: r.batch_id as string,
  accountId: r.account_id as string,
  sandbox: r.sandbox === 1,
  transferId: r.transfer_id as string,
  inputUrl: r.input_url as string,
  destination: JSON.parse(r.destination as string),
  provider: r.provider as string,
  status: r.status as TransferAsset['status'],
  url: (r.url as string | null) ?? null,
  providerId: (r.provider_id as string | null) ?? null,
  storageKey: (r.storage_key as string | null) ?? null,
  filename: (r.filename as string | null) ?? null,
  error: (r.error as string | null) ?? null,
  createdAt: r.created_at as string,
  updatedAt: r.updated_at as string,
})
