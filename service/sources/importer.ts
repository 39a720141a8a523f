import { stat } from 'node:fs/promises'
import { basename } from 'node:path'
import { RenderError } from '../../core/index.js'
import type { ServiceConfig } from '../config.js'
import { inject, injectable } from '../composition/di.js'
import { fetchGuarded } from '../media/probe.js'
import { publicText } from '../lib/public-text.js'
import type { Storage } from '../storage/storage.js'
import { TOKENS } from '../composition/tokens.js'
import { inWorkDir } from '../lib/work-dir.js'
import { WorkPool } from '../lib/work-pool.js'
import type { Webhooks } from '../webhooks/webhooks.js'
import type { SourceRenditions } from './renditions.js'
import { sniff } from './sniff.js'
import { fetchStaged, StagedWatch, stagingKey } from './staged-upload.js'
import type { Source, SourceStore } from './store.js'
import { logger } from '../log.js'

const log = logger('sources')

/** The public record of a source, as events carry it. */
export const sourceRecord = ({ accountId: _a, sandbox: _s, callback: _c, key: _k, staged: _st, ...record }: Source) => record

/**
 * Imports sources in this process, a few at a time: download through the render loader's guard (a fresh copy,
 * never the render cache: a re-import must see new bytes), read what the bytes are, store them under
 * `<id>/<name>.<ext>`, then `source.ready` or `source.failed` to the callback and the global webhook. Queued or
 * half-done imports (a restart) are picked up again by `start`.
 */
@injectable()
export class SourceImporter {
  constructor(
    @inject(TOKENS.Config) private readonly config: ServiceConfig,
    @inject(TOKENS.Sources) private readonly sources: SourceStore,
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Webhooks) private readonly webhooks: Webhooks,
    @inject(TOKENS.SourceRenditions) private readonly renditions: SourceRenditions,
  ) {}

  /** Imports at a time in this process: `sources.imports`. */
  private readonly pool = new WorkPool(
    () => this.config.sources.imports,
    (id) => this.run(id),
  )

  /** With S3 storage: looks for files sent to presigned upload URLs, to import them through the pool. */
  private staged?: StagedWatch

  async start(): Promise<void> {
    this.pool.start()
    for (const id of await this.sources.unfinished()) this.enqueue(id)
    if (!this.storage.presignPut) return
    this.staged ??= new StagedWatch(this.sources, this.storage, (id) => this.enqueue(`${STAGED}${id}`))
    this.staged.start(this.config.sources.uploadPollMs ?? 2000)
  }

  /** Waits for the imports under way; queued ones stay queued in the database for the next start. */
  stop = async (): Promise<void> => {
    await this.staged?.stop()
    await this.pool.stop()
  }

  /** Whether uploads go straight to the storage (S3: presigned URLs) rather than through this service. */
  presigns = (): boolean => !!this.storage.presignPut
  /** A presigned bucket URL for an upload's bytes (only when `presigns()`). */
  presignUpload = (id: string, seconds: number): Promise<string> => this.storage.presignPut!(stagingKey(id), seconds)

  enqueue = (id: string): void => this.pool.enqueue(id)
  /** Resolves when nothing is queued or running (tests, shutdown). */
  idle = (): Promise<void> => this.pool.idle()

  private async run(id: string): Promise<void> {
    // A staged upload seen in the bucket: whichever process claims it first imports it; the others skip it.
    if (id.startsWith(STAGED)) {
      const staged = await this.sources.byId(id.slice(STAGED.length))
      return void (staged && (await this.sources.claimStaged(staged.id)) && (await this.finish(staged, this.importStaged(staged))))
    }
    const source = await this.sources.byId(id)
    if (!source || (source.status !== 'queued' && source.status !== 'importing')) return
    // A staged upload claimed by a process that stopped: its bytes are still in the bucket, so import them again.
    if (source.staged) return void (source.status === 'importing' && (await this.finish(source, this.importStaged(source))))
    // An upload that was being received when the process stopped cannot be resumed: its bytes are gone.
    if (!source.input_url) return void (source.status === 'importing' && (await this.finish(source, this.fail(id, 'the upload was interrupted; upload again'))))
    const url = source.input_url
    await this.sources.importing(id)
    await this.finish(
      source,
      this.inWorkDir(async (dir) => {
        const room = await this.room(source.accountId)
        const path = await fetchGuarded({ config: this.config }, url, { cacheDir: dir, maxBytes: room.maxBytes, timeoutMs: 10 * 60_000 }).catch((e) => {
          // The loader names its own limit; say which setting it was here.
          if (!(e instanceof RenderError && e.code === 'E_ASSET_TOO_LARGE')) throw e
          throw new Error(
            room.byQuota ? `${e.message} (the account's storage quota has ${room.left} bytes left)` : `${e.message} (the per-file limit sources.maxFileBytes)`,
          )
        })
        await this.keep(id, path, url, basename(new URL(url).pathname))
      }),
    )
  }

  /** Stores a received upload (claimed, its bytes written to `path`) or records why it failed; then tells. */
  async finishUpload(source: Source, received: string | Error): Promise<Source> {
    const name = source.filename ?? 'upload'
    await this.finish(source, typeof received === 'string' ? this.keep(source.id, received, name, name) : Promise.reject(received))
    return (await this.sources.byId(source.id))!
  }

  /** Imports a file the client sent to its presigned URL, then deletes the staged object whatever came of it. */
  private importStaged(source: Source): Promise<void> {
    const name = source.filename ?? 'upload'
    return this.inWorkDir(async (dir) => {
      try {
        const path = await fetchStaged(this.storage, source.id, dir, await this.room(source.accountId))
        if (!path) throw new Error('the uploaded file was not found in storage')
        await this.keep(source.id, path, name, name)
      } finally {
        await this.storage.remove(stagingKey(source.id))
      }
    })
  }

  /** How many bytes the next file of an account may have: the file limit, or less when the quota is nearly full. */
  async room(accountId: string): Promise<{ maxBytes: number; left: number; byQuota: boolean }> {
    const { quotaBytes, maxFileBytes } = this.config.sources
    const left = Math.max(0, quotaBytes - (await this.sources.usedBytes(accountId)))
    return { maxBytes: Math.min(maxFileBytes, left), left, byQuota: left < maxFileBytes }
  }

  /** A fresh folder under the work directory for `work`, removed after it. */
  inWorkDir = <T>(work: (dir: string) => Promise<T>): Promise<T> => inWorkDir(this.config, 'source-', work)

  /** Reads what the file is, stores it as `<id>/<stem>.<real extension>` and marks the source ready. */
  private async keep(id: string, path: string, what: string, name: string): Promise<void> {
    const media = await sniff(path, what)
    const key = `${id}/${fileName(name, media.ext)}`
    const { size } = await stat(path)
    // Renditions are made from the local file before it is stored: until they end the source is `importing`,
    // so a restart imports it again (renditions included) and `source.ready` carries them.
    await this.renditions.run({ id, key, path, media })
    await this.storage.put(key, path)
    await this.sources.transaction(async () => {
      await this.sources.ready(id, key, size, media)
      await this.announce(id)
    })
  }

  private async fail(id: string, message: string): Promise<void> {
    await this.sources.transaction(async () => {
      await this.sources.failed(id, message)
      await this.announce(id)
    })
  }

  /**
   * The source's event, in the transaction that ends it: whoever reads it ready or failed finds the event written.
   * Every front end resumes unfinished imports when it starts: the event is written once per source.
   */
  private async announce(id: string): Promise<void> {
    const done = (await this.sources.byId(id))!
    const event = done.status === 'ready' ? 'source.ready' : 'source.failed'
    await this.webhooks.announce(done.accountId, event, sourceRecord(done), done.callback, { sandbox: done.sandbox, once: done.id })
  }

  /** Waits for the work; a failure marks the source failed (in words without server paths), with its event. */
  private async finish(source: Source, work: Promise<void>): Promise<void> {
    try {
      await work
    } catch (e) {
      const message = publicText(e instanceof Error ? e.message : String(e), (full) => log.warn(`${source.id} failed: ${full}`))
      // A source already stored and announced ready stays ready (a staged copy left behind is only logged).
      if ((await this.sources.byId(source.id))?.status !== 'ready') await this.fail(source.id, message)
    }
  }
}

/** The pool's id of a staged upload's import, as StagedWatch finds it (never the restart path for an interrupted upload). */
const STAGED = 'staged:'

/** A storage name from a file name (the URL's last path segment, an upload's `filename`), with the content's extension. */
export function fileName(name: string, ext: string): string {
  const stem =
    name
      .replace(/\.[^.]*$/, '')
      .replace(/[^A-Za-z0-9_-]+/g, '-')
      .slice(0, 80) || 'source'
  return `${stem.replace(/^-+|-+$/g, '') || 'source'}.${ext}`
}
