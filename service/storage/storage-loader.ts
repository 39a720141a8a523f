import { defineLoaderPlugin, type LoaderPlugin } from '../../core/index.js'
import { ownFileKey } from '../jobs/source-policy.js'
import { materialize, type Storage } from './storage.js'

/**
 * Reads the service's own file URLs (`<base>/v1/files/<id>/<name>`, or just `/v1/files/<id>/<name>`, e.g.
 * generated images) straight from storage — the file itself, or from object storage a copy in `cacheDir` —
 * without an HTTP round trip to itself.
 */
export function storageLoader(baseUrl: () => string, storage: Storage, cacheDir: string): LoaderPlugin {
  return defineLoaderPlugin({
    kind: 'loader',
    name: 'storage',
    priority: 100,
    test: (src) => ownFileKey(src, baseUrl()) !== undefined,
    async load(src) {
      const path = await materialize(storage, ownFileKey(src, baseUrl())!, cacheDir)
      if (!path) throw new Error(`no stored file for ${src}`)
      return path
    },
  })
}
