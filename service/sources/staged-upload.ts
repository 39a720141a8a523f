import { createWriteStream } from 'node:fs'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import type { Storage } from '../storage/storage.js'
import { byteCap, tooLarge } from './ingest.js'
import type { SourceStore } from './store.js'
import { logger } from '../log.js'
import { isUnavailable } from '../lib/retry.js'

const log = logger('sources')

/**
 * Uploads straight to the bucket (S3 storage): `POST /v1/upload` answers a presigned PutObject URL for a
 * staging object beside the source's own files; the importer looks for that object (`SourceImporter.watch`)
 * and imports it like any file — sniffed, probed, stored under `<id>/<name>.<ext>`, the quota checked — then
 * deletes it. The service never sees the bytes on their way in.
 */

/** What `upload_token` holds for such an upload: no token of ours (the bucket checks the signature), never a sha256. */
export const STAGED_UPLOAD = 'presigned-s3'
/** …and once a process has claimed its file: still marked, so a restart re-imports it and the watch can tidy after it. */
export const STAGED_CLAIMED = 'presigned-s3-claimed'

/** Where the client's PUT lands: under the source's id, so that DELETE and listings by id see it. */
export const stagingKey = (id: string) => `${id}/upload.part`

/**
 * How long past its expiry the importer still looks for a staged file: the bucket checks the signature's
 * expiry when a PUT starts, so a large file begun just before it can land a little after.
 */
export const STAGED_GRACE_MS = 10 * 60_000

/**
 * Copies the staged object into `dir` within `room` (its size is known before a byte is read, so a file too
 * large is refused naming the limit without downloading it). Undefined when nothing was uploaded.
 */
export async function fetchStaged(storage: Storage, id: string, dir: string, room: { maxBytes: number; byQuota: boolean; left: number }) {
  const file = await storage.open(stagingKey(id))
  if (!file) return undefined
  if (file.size > room.maxBytes) throw tooLarge(room)
  const path = join(dir, 'upload')
  // Counted as it comes too: the URL takes PUTs until it expires, so the object read may not be the one measured.
  await pipeline(file.read(), byteCap(room), createWriteStream(path))
  return path
}

/**
 * Every `everyMs`, one HEAD per unexpired staged upload (every server process does: the first to claim a
 * found file imports it); `found` hands the id on. A look still under way when the next is due is not doubled.
 */
export class StagedWatch {
  private timer?: NodeJS.Timeout
  /** The look in flight, if any: `stop` waits for it, so no storage call outlives the service. */
  private looking?: Promise<void>

  constructor(
    private readonly sources: SourceStore,
    private readonly storage: Storage,
    private readonly found: (id: string) => void,
  ) {}

  start(everyMs: number): void {
    this.timer ??= setInterval(() => void (this.looking ??= this.look().finally(() => (this.looking = undefined))), everyMs).unref()
  }

  /**
   * Stops looking, once the look in flight is done: left running, its storage calls went on retrying against a
   * bucket stopped after the service (full run 34: a test process kept alive past its end).
   */
  async stop(): Promise<void> {
    clearInterval(this.timer)
    this.timer = undefined
    await this.looking
  }

  private async look(): Promise<void> {
    try {
      for (const id of await this.sources.stagedUploads()) if (await this.storage.open(stagingKey(id))) this.found(id)
      // A file PUT again after its source was imported (or failed) is nobody's: removed, outside any quota.
      for (const id of await this.sources.stagedLeftovers()) if (await this.storage.open(stagingKey(id))) await this.storage.remove(stagingKey(id))
    } catch (e) {
      // The database or the bucket being down is logged once, by its watch; it is looked at again next time.
      if (!isUnavailable(e)) log.warn(`looking for uploads in the bucket failed: ${(e as Error).message}`)
    }
  }
}
