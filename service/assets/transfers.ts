import { createReadStream, createWriteStream } from 'node:fs'
import { copyFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import type { Principal } from '../accounts/keys.js'
import { fileUrl, type ServiceConfig } from '../config.js'
import { copyToS3, objectKeys } from '../destinations/copy.js'
import type { IntegrationStore } from '../destinations/integrations.js'
import { parseDestination, type S3Options } from '../destinations/schema.js'
import { inject, injectable } from '../composition/di.js'
import { fetchGuarded } from '../media/probe.js'
import { publicText } from '../lib/public-text.js'
import { fileName } from '../sources/importer.js'
import { sniff } from '../sources/sniff.js'
import type { Storage } from '../storage/storage.js'
import { TOKENS } from '../composition/tokens.js'
import { inWorkDir } from '../lib/work-dir.js'
import { WorkPool } from '../lib/work-pool.js'
import { ownFileKey, parseTransfer } from './transfer-schema.js'
import type { TransferAsset, TransferStore } from './transfer-store.js'
import { logger } from '../log.js'

const log = logger('transfers')

/** The file being transferred, downloaded into the work folder: its path, its name (with the content's extension), its size. */
interface Fetched {
  path: string
  name: string
  size: number
}

/**
 * Shotstack's Serve transfers: a file (one of this service's own, read from storage, or any http(s) URL,
 * downloaded through the SSRF guard) copied to each destination — an S3 bucket with the account's credentials
 * (the copier renders' `output.destinations` use) or this service's hosting (`shotstack`). Each destination is an
 * asset whose status tells how its copy went; a failed copy fails that asset only. Runs a few at a time in this
 * process; a restart resumes the copies not yet made.
 */
@injectable()
export class Transfers {
  private readonly pool = new WorkPool(
    () => this.config.sources.imports,
    (batch) => this.run(batch),
  )

  constructor(
    @inject(TOKENS.Config) private readonly config: ServiceConfig,
    @inject(TOKENS.TransferStore) readonly store: TransferStore,
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Integrations) private readonly integrations: IntegrationStore,
  ) {}

  async start(): Promise<void> {
    this.pool.start()
    for (const batch of await this.store.unfinished()) this.pool.enqueue(batch)
  }
  stop = (): Promise<void> => this.pool.stop()
  /** Resolves when no transfer is queued or running (tests). */
  idle = (): Promise<void> => this.pool.idle()

  /** Checks and records a transfer (400 naming the field), queues its copies; its assets, one per destination. */
  async submit(p: Principal, body: unknown): Promise<TransferAsset[]> {
    const request = await parseTransfer({ config: this.config, storage: this.storage, integrations: this.integrations }, p.accountId, body)
    const { batchId, assets } = await this.store.create(p, request)
    if (assets.some((a) => a.status === 'importing')) this.pool.enqueue(batchId)
    return assets
  }

  /** Deletes an asset: a hosted copy's file is removed; a copy in the user's bucket stays theirs. */
  async remove(asset: TransferAsset): Promise<void> {
    if (asset.status === 'deleted') return
    await this.store.deleted(asset.id)
    if (asset.storageKey) await this.storage.remove(asset.storageKey)
  }

  private async run(batchId: string): Promise<void> {
    const assets = (await this.store.ofBatch(batchId)).filter((a) => a.status === 'importing')
    if (!assets.length) return
    await inWorkDir(this.config, 'transfer-', async (dir) => {
      const file = await this.fetch(assets[0]!.inputUrl, dir).catch((e: Error) => e)
      for (const asset of assets)
        await (file instanceof Error ? Promise.reject(file) : this.send(asset, file, dir)).catch((e: Error) =>
          this.store.failed(
            asset.id,
            publicText(e.message, (full) => log.warn(`${asset.id}: ${full}`)),
          ),
        )
    })
  }

  private async fetch(url: string, dir: string): Promise<Fetched> {
    const key = ownFileKey(this.config, url)
    if (key) {
      const file = await this.storage.open(key)
      if (!file) throw new Error(`${url} is no longer on this service`)
      const path = join(dir, 'source')
      await pipeline(file.read(), createWriteStream(path))
      return { path, name: key.split('/').pop()!, size: file.size }
    }
    const limits = { cacheDir: dir, maxBytes: this.config.sources.maxFileBytes, timeoutMs: 10 * 60_000 }
    const path = await fetchGuarded({ config: this.config }, url, limits)
    const last = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '')
    // The URL's extension when it has one, else what the bytes are (any file may be transferred: `bin` if unknown).
    const ext =
      /\.([A-Za-z0-9]{1,5})$/.exec(last)?.[1]?.toLowerCase() ??
      (await sniff(path, url).then(
        (s) => s.ext,
        () => 'bin',
      ))
    return { path, name: fileName(last || 'transfer', ext), size: (await stat(path)).size }
  }

  private async send(asset: TransferAsset, file: Fetched, dir: string): Promise<void> {
    const d = parseDestination(asset.destination, 0, [])
    if (d.provider === 'shotstack') {
      const key = `${asset.id}/${file.name}`
      // `put` may move the file it is given: each hosted copy gets its own.
      const copy = join(dir, `${asset.id}-${file.name}`)
      await copyFile(file.path, copy)
      await this.storage.put(key, copy)
      const copied = { url: fileUrl(this.config, key), providerId: asset.id, storageKey: key, filename: file.name }
      if (!(await this.store.ready(asset.id, copied))) await this.storage.remove(key)
      return
    }
    if (d.provider !== 's3' || 'unsupported' in d) throw new Error(`reelforge cannot send to "${d.provider}"`)
    const credentials = await this.integrations.s3Credentials(asset.accountId)
    if (!credentials) throw new Error('the account has no S3 credentials: set them with PUT /v1/integrations/s3')
    const options = (d as { options: S3Options }).options
    // The object is named as a render's would be, the transfer's id standing in for the render id.
    const name = asset.transferId.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 200) || 'transfer'
    const reader = {
      open: async () => ({ size: file.size, mtime: new Date(), read: (range?: { start: number; end: number }) => createReadStream(file.path, range) }),
    }
    const { url } = await copyToS3(reader, { url: file.name }, { jobId: name, options, credentials }, { network: this.config.network })
    const key = objectKeys(name, { url: file.name }, options).url
    await this.store.ready(asset.id, { url, providerId: key, storageKey: null, filename: key.split('/').pop()! })
  }
}
