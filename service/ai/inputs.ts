import { copyFile } from 'node:fs/promises'
import { extname, join } from 'node:path'
import { RenderError } from '../../core/index.js'
import { publicBaseUrl, type ServiceConfig } from '../config.js'
import { ownFileKey } from '../jobs/source-policy.js'
import { fetchGuarded } from '../media/probe.js'
import { materialize, type Storage } from '../storage/storage.js'

/**
 * A job's input file (`src`, `image`) as a local copy in `dir`: this service's own files (hosted sources,
 * renders) straight from storage, anything else through the render loader's network guard and size limit.
 */
export async function localInput(d: { config: ServiceConfig; storage: Storage }, url: string, dir: string, name: string): Promise<string> {
  const key = ownFileKey(url, publicBaseUrl(d.config))
  const target = join(dir, `${name}${extname(new URL(url, 'http://x').pathname) || ''}`)
  if (key) {
    const path = await materialize(d.storage, key, d.config.cacheDir)
    if (!path) throw new RenderError('E_ASSET_UNREADABLE', `${url} is not a file of this service (deleted?)`)
    await copyFile(path, target)
    return target
  }
  const path = await fetchGuarded(d, url, { cacheDir: join(dir, 'download'), maxBytes: d.config.sources.maxFileBytes, timeoutMs: 10 * 60_000 })
  await copyFile(path, target)
  return target
}
