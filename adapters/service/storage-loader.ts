import { stat } from 'node:fs/promises'
import { defineLoaderPlugin, type LoaderPlugin } from '../../core/index.js'
import type { Storage } from './storage.js'

/**
 * Reads the service's own file URLs (`<base>/v1/files/<id>/<name>`, e.g. generated images) straight from
 * storage: an image the service made renders without an HTTP round trip to itself.
 */
export function storageLoader(baseUrl: () => string, storage: Storage): LoaderPlugin {
  const prefix = () => `${baseUrl().replace(/\/+$/, '')}/v1/files/`
  return defineLoaderPlugin({
    kind: 'loader',
    name: 'storage',
    priority: 100,
    test: (src) => src.startsWith(prefix()) && storage.localPath(src.slice(prefix().length)) !== undefined,
    async load(src) {
      const path = storage.localPath(src.slice(prefix().length))!
      if (!(await stat(path).catch(() => undefined))?.isFile()) throw new Error(`no stored file for ${src}`)
      return path
    },
  })
}
