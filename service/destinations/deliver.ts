import type { DestinationRecord } from '../api-types.js'
import { fileUrl, type ServiceConfig } from '../config.js'
import { inject, injectable } from '../composition/di.js'
import type { Job } from '../jobs/store.js'
import type { Storage } from '../storage/storage.js'
import { TOKENS } from '../composition/tokens.js'
import { copyToS3, type CopiedFiles, type RenderFiles } from './copy.js'
import type { IntegrationStore, S3Credentials } from './integrations.js'
import { destinationsOf, pathOf, type Destination, type S3Options } from './schema.js'
import { logger } from '../log.js'

const log = logger('destinations')

/** What sending a render to its destinations came to. */
export interface Delivered {
  /** One per destination, in the edit's order. */
  records: DestinationRecord[]
  /**
   * Set when `{ provider: "shotstack", exclude: true }` took effect (every other destination holds a copy):
   * the first copy's URLs replace the render's own, whose files are removed from storage once it completes.
   */
  moved?: CopiedFiles
}

/**
 * Sends finished renders to their `output.destinations` before they are marked COMPLETE, so the status and
 * the `render.complete` webhook carry every outcome. A failed copy fails that destination, never the render.
 */
@injectable()
export class Destinations {
  /** One delivery per render at a time in this process (BullMQ's event and its reconcile may both settle one). */
  private readonly running = new Map<string, Promise<Delivered | undefined>>()

  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Integrations) private readonly integrations: IntegrationStore,
    @inject(TOKENS.Config) private readonly config: ServiceConfig,
  ) {}

  /** Copies the render's files to each destination; undefined when the edit names none. */
  deliver(job: Job, files: RenderFiles, signal?: AbortSignal): Promise<Delivered | undefined> {
    let p = this.running.get(job.id)
    if (!p) {
      p = this.send(job, files, signal).finally(() => this.running.delete(job.id))
      this.running.set(job.id, p)
    }
    return p
  }

  private async send(job: Job, files: RenderFiles, signal?: AbortSignal): Promise<Delivered | undefined> {
    const list = destinationsOf(job.request)
    if (!list.length) return undefined
    const records: (DestinationRecord | undefined)[] = []
    const copies: CopiedFiles[] = []
    let credentials: Promise<S3Credentials | undefined> | undefined
    for (const [i, d] of list.entries()) {
      if (d.provider === 'shotstack') continue // decided below, from the others' outcomes
      if ('unsupported' in d) {
        records[i] = { provider: d.provider, status: 'failed', error: `reelforge cannot send to "${d.provider}"` }
        continue
      }
      try {
        credentials ??= this.integrations.s3Credentials(job.accountId)
        const creds = await credentials
        if (!creds) throw new Error('the account has no S3 credentials: set them with PUT /v1/integrations/s3')
        const options = (d as { options: S3Options }).options
        const copied = await copyToS3(this.storage, files, { jobId: job.id, options, credentials: creds }, { network: this.config.network, signal })
        copies.push(copied)
        records[i] = { provider: d.provider, status: 'done', url: copied.url }
      } catch (e) {
        records[i] = { provider: d.provider, status: 'failed', error: (e as Error).message }
      }
    }
    const others = list.map((d, i) => [d, i] as const).filter(([d]) => d.provider !== 'shotstack')
    const failed = others.find(([, i]) => records[i]?.status !== 'done')
    const exclude = list.some((d) => d.provider === 'shotstack' && (d as { exclude?: boolean }).exclude)
    const moved = exclude && others.length > 0 && !failed ? copies[0] : undefined
    const hosted = fileUrl(this.config, files.url)
    const kept = failed ? `${pathOf(failed[1])} failed` : 'no other destination holds a copy'
    return {
      records: list.map((d: Destination, i) => {
        if (d.provider !== 'shotstack') return records[i]!
        if (!(d as { exclude?: boolean }).exclude) return { provider: 'shotstack', status: 'done', url: hosted }
        return moved
          ? { provider: 'shotstack', status: 'done' }
          : { provider: 'shotstack', status: 'failed', error: `not excluded, the files stay in reelforge's storage: ${kept}` }
      }),
      moved,
    }
  }

  /** Removes an excluded render's files from reelforge's storage (after it completed with the copies' URLs). */
  async removeHosted(jobId: string, files: RenderFiles): Promise<void> {
    for (const key of [files.url, files.poster, files.thumbnail])
      if (key) await this.storage.remove(key).catch((e) => log.error(`could not remove ${key} of ${jobId}:`, (e as Error).message))
  }
}
