import { defineLoaderPlugin, type LoaderPlugin } from '../../core/index.js'
import { materialize, STORAGE_KEY, type Storage } from './storage.js'

/**
 * Reads the service's own file URLs (`<base>/v1/files/<id>/<name>`, e.g. generated images) straight from
 * storage — the file itself, or from object storage a copy in `cacheDir` — without an HTTP round trip to itself.
 */
export function storageLoader(baseUrl: () => string, storage: Storage, cacheDir: string): LoaderPlugin {
  const prefix = () => `${baseUrl().replace(/\/+$/, '')}/v1/files/`
  return defineLoaderPlugin({
    kind: 'loader',
    name: 'storage',
    priority: 100,
    test: (src) => src.startsWith(prefix()) && STORAGE_KEY.test(src.slice(prefix().length)),
    async load(src) {
      const path = await materialize(storage, src.slice(prefix().length), cacheDir)
      if (!path) throw new Error(`no stored file for ${src}`)
      return path
    },
  })
}
