import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { SourceRecord, SourceRenditionRecord } from '../api-types.js'
import { fileUrl, type ServiceConfig, workDir } from '../config.js'
import { nowIso, type Db } from '../db/db.js'
import { inject, injectable } from '../composition/di.js'
import { uuidv7 } from '../lib/ids.js'
import { publicText } from '../lib/public-text.js'
import { forgetMaterialized, type Storage } from '../storage/storage.js'
import { TOKENS } from '../composition/tokens.js'
import { RENDITION_FORMATS, type Rendition, type RenditionFormat } from './rendition-schema.js'
import { type Made, transcode } from './rendition-transcode.js'
import type { Sniffed } from './sniff.js'
import { logger } from '../log.js'

const log = logger('sources')

type Row = Omit<SourceRenditionRecord, 'url' | 'transformation'> & { source_id: string; request: string; storage_key: string | null }

/** A downloaded source (`path`, a local file) on its way into storage: what the importer knows when renditions are made. */
export interface Imported {
  id: string
  /** The key the source itself will be stored under (no rendition may take it). */
  key: string
  path: string
  media: Sniffed
}

/** One rendition may take this long before it fails (the source's import slot is held meanwhile). */
const TIMEOUT_MS = 30 * 60_000

/**
 * A source's renditions (Shotstack's `outputs.renditions`): rows in `source_renditions`, queued with the source,
 * and the ffmpeg runs that make them, one after another, from the downloaded file before the source is stored.
 * Each fails on its own (an audio source's, a bad size): the source stays good. Files are `<source id>/<name>`.
 */
@injectable()
export class SourceRenditions {
  constructor(
    @inject(TOKENS.Db) private readonly db: Db,
    @inject(TOKENS.Config) private readonly config: ServiceConfig,
    @inject(TOKENS.Storage) private readonly storage: Storage,
  ) {}

  /** Queues the renditions a new source asked for, in their order. */
  async add(sourceId: string, requests: readonly Rendition[]): Promise<void> {
    const now = nowIso()
    for (const [position, request] of requests.entries())
      await this.db.run(
        "INSERT INTO source_renditions (id, source_id, position, status, request, created_at, updated_at) VALUES (?, ?, ?, 'queued', ?, ?, ?)",
        [uuidv7(), sourceId, position, JSON.stringify(request), now, now],
      )
  }

  /** The renditions of these sources by source id, in the order asked; a failed source's unfinished ones read as failed. */
  async forSources(sources: ReadonlyArray<Pick<SourceRecord, 'id' | 'status'>>): Promise<Map<string, SourceRenditionRecord[]>> {
    const out = new Map(sources.map((s) => [s.id, [] as SourceRenditionRecord[]]))
    if (!sources.length) return out
    const rows = await this.db.all<Row>(
      `SELECT * FROM source_renditions WHERE source_id IN (${sources.map(() => '?').join(', ')}) ORDER BY source_id, position`,
      sources.map((s) => s.id),
    )
    const failed = new Set(sources.filter((s) => s.status === 'failed').map((s) => s.id))
    for (const { source_id, request, storage_key, ...r } of rows) {
      const stuck = failed.has(source_id) && (r.status === 'queued' || r.status === 'processing')
      out.get(source_id)!.push({
        id: r.id,
        status: stuck ? 'failed' : r.status,
        url: r.status === 'ready' && storage_key ? fileUrl(this.config, storage_key) : null,
        transformation: JSON.parse(request),
        content_type: r.content_type,
        bytes: r.bytes === null ? null : Number(r.bytes),
        width: r.width,
        height: r.height,
        duration: r.duration,
        fps: r.fps,
        error: stuck ? 'the source was not imported' : r.error,
      })
    }
    return out
  }

  /** Bytes an account's renditions hold, for its quota. */
  async usedBytes(accountId: string): Promise<number> {
    const row = await this.db.get<{ n: number | null }>(
      'SELECT SUM(r.bytes) AS n FROM source_renditions r JOIN sources s ON s.id = r.source_id WHERE s.account_id = ?',
      [accountId],
    )
    return Number(row?.n ?? 0)
  }

  /** Deletes a source's rendition files and rows (the source's own removal). */
  async remove(sourceId: string): Promise<void> {
    const rows = await this.db.all<{ storage_key: string | null }>('SELECT storage_key FROM source_renditions WHERE source_id = ?', [sourceId])
    for (const { storage_key } of rows) {
      if (!storage_key) continue
      await this.storage.remove(storage_key)
      await forgetMaterialized(this.config.cacheDir, storage_key)
    }
    await this.db.run('DELETE FROM source_renditions WHERE source_id = ?', [sourceId])
  }

  /**
   * Makes a source's renditions, each from the downloaded file: processing, then ready with what ffprobe reads
   * from the result, or failed with why. A re-import (after a restart) makes them all again.
   */
  async run(source: Imported): Promise<void> {
    const rows = await this.db.all<Row>('SELECT * FROM source_renditions WHERE source_id = ? ORDER BY position', [source.id])
    if (!rows.length) return
    await this.db.run("UPDATE source_renditions SET status = 'queued', error = NULL, updated_at = ? WHERE source_id = ?", [nowIso(), source.id])
    await mkdir(workDir(this.config), { recursive: true })
    const dir = await mkdtemp(join(workDir(this.config), 'rendition-'))
    const taken = new Set([source.key])
    try {
      for (const row of rows) {
        await this.db.run("UPDATE source_renditions SET status = 'processing', updated_at = ? WHERE id = ?", [nowIso(), row.id])
        await this.make(source, row, JSON.parse(row.request), dir, taken).then(
          ([key, made]) => this.ready(row.id, key, made),
          (e) => this.failed(row.id, e),
        )
      }
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }

  private async make(source: Imported, row: Row, r: Rendition, dir: string, taken: Set<string>): Promise<[string, Made]> {
    const { type, ext } = source.media
    if (type !== 'video' && type !== 'image') throw new Error(`renditions are made from video and image sources; this source is ${type}`)
    const format: RenditionFormat = r.format ?? (type === 'video' ? 'mp4' : ext === 'jpg' || ext === 'png' || ext === 'webp' ? ext : 'png')
    if (type === 'image' && RENDITION_FORMATS[format] === 'video')
      throw new Error(`${format} is a video format; an image source makes jpg, png or webp renditions`)
    const key = `${source.id}/${r.filename ?? row.id}.${format}`
    if (taken.has(key)) throw new Error(`the file name ${r.filename}.${format} is the source's own or an earlier rendition's`)
    taken.add(key)
    const out = join(dir, `${row.id}.${format}`)
    const signal = AbortSignal.timeout(TIMEOUT_MS)
    const late = (e: unknown) => Promise.reject(signal.aborted ? new Error(`the rendition took longer than ${TIMEOUT_MS / 60_000} minutes`) : e)
    const made = await transcode(source.path, out, r, format, signal).catch(late)
    await this.storage.put(key, out)
    return [key, made]
  }

  private async ready(id: string, key: string, m: Made): Promise<void> {
    await this.db.run(
      `UPDATE source_renditions SET status = 'ready', storage_key = ?, content_type = ?, bytes = ?, width = ?, height = ?, duration = ?, fps = ?,
       error = NULL, updated_at = ? WHERE id = ?`,
      [key, m.contentType, m.bytes, m.width, m.height, m.duration, m.fps, nowIso(), id],
    )
  }

  /** Records why, in words without server paths (the log keeps them). */
  private async failed(id: string, e: unknown): Promise<void> {
    const error = publicText(e instanceof Error ? e.message : String(e), (full) => log.warn(`rendition ${id}: ${full}`))
    await this.db.run("UPDATE source_renditions SET status = 'failed', error = ?, updated_at = ? WHERE id = ?", [error, nowIso(), id])
  }
}
