import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises'
import { basename, join } from 'node:path'
import type { ServiceConfig } from '../config.js'
import { workDir } from '../config.js'
import { inject, injectable } from '../di.js'
import { fetchGuarded } from '../probe.js'
import { publicText } from '../public-text.js'
import type { Storage } from '../storage/storage.js'
import { TOKENS } from '../tokens.js'
import type { Webhooks } from '../webhooks/events.js'
import { sniff } from './sniff.js'
import type { Source, SourceStore } from './store.js'

/** The public record of a source, as events carry it. */
export const sourceRecord = ({ accountId: _a, sandbox: _s, callback: _c, key: _k, ...record }: Source) => record

/**
 * Imports sources in this process, a few at a time: download through the render loader's guard (a fresh copy,
 * never the render cache: a re-import must see new bytes), read what the bytes are, store them under
 * `<id>/<name>.<ext>`, then `source.ready` or `source.failed` to the callback and the global webhook. Queued or
 * half-done imports (a restart) are picked up again by `start`.
 */
@injectable()
export class SourceImporter {
  private readonly waiting: string[] = []
  private readonly running = new Set<Promise<void>>()
  private stopped = true

  constructor(
    @inject(TOKENS.Config) private readonly config: ServiceConfig,
    @inject(TOKENS.Sources) private readonly sources: SourceStore,
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Webhooks) private readonly webhooks: Webhooks,
  ) {}

  async start(): Promise<void> {
    this.stopped = false
    for (const id of await this.sources.unfinished()) this.enqueue(id)
  }

  /** Waits for the imports under way; queued ones stay queued in the database for the next start. */
  async stop(): Promise<void> {
    this.stopped = true
    this.waiting.length = 0
    await Promise.allSettled([...this.running])
  }

  enqueue(id: string): void {
    this.waiting.push(id)
    this.pump()
  }

  /** Resolves when nothing is queued or running (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running.size || this.waiting.length) await Promise.allSettled([...this.running])
  }

  private pump(): void {
    while (!this.stopped && this.waiting.length && this.running.size < this.config.sources.imports) {
      const run = this.run(this.waiting.shift()!).finally(() => {
        this.running.delete(run)
        this.pump()
      })
      this.running.add(run)
    }
  }

  private async run(id: string): Promise<void> {
    const source = await this.sources.byId(id)
    if (!source?.input_url || (source.status !== 'queued' && source.status !== 'importing')) return
    await this.sources.importing(id)
    await mkdir(workDir(this.config), { recursive: true })
    const dir = await mkdtemp(join(workDir(this.config), 'source-'))
    try {
      const { quotaBytes, maxFileBytes } = this.config.sources
      const room = quotaBytes - (await this.sources.usedBytes(source.accountId))
      const maxBytes = Math.max(0, Math.min(maxFileBytes, room))
      const path = await fetchGuarded({ config: this.config }, source.input_url, { cacheDir: dir, maxBytes, timeoutMs: 10 * 60_000 }).catch((e) => {
        // The loader names its own limit; say which one it was here.
        throw maxBytes < maxFileBytes && /limit/i.test(String(e?.message)) ? new Error(`${e.message} (the account's storage quota has ${room} bytes left)`) : e
      })
      const media = await sniff(path, source.input_url)
      const key = `${id}/${fileName(source.input_url, media.ext)}`
      const { size } = await stat(path)
      await this.storage.put(key, path)
      await this.sources.ready(id, key, size, media)
    } catch (e) {
      const message = publicText(e instanceof Error ? e.message : String(e), (full) => console.warn(`[sources] ${id} failed: ${full}`))
      await this.sources.failed(id, message)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
    const done = (await this.sources.byId(id))!
    const event = done.status === 'ready' ? 'source.ready' : 'source.failed'
    await this.webhooks.emit(done.accountId, event, sourceRecord(done), done.callback, { sandbox: done.sandbox })
  }
}

/** A storage name from the URL's last path segment, with the extension the content has. */
function fileName(url: string, ext: string): string {
  const stem =
    basename(new URL(url).pathname)
      .replace(/\.[^.]*$/, '')
      .replace(/[^A-Za-z0-9_-]+/g, '-')
      .slice(0, 80) || 'source'
  return `${stem.replace(/^-+|-+$/g, '') || 'source'}.${ext}`
}
