import { stat } from 'node:fs/promises'
import { isAbsolute, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineLoaderPlugin, RenderError } from '../../core/index.js'

/** `file://` URLs and plain paths (library and CLI use); relative paths resolve against the edit's folder. */
export const fileLoader = defineLoaderPlugin({
  kind: 'loader',
  name: 'file',
  priority: 0,
  test: (src) => src.startsWith('file://') || !/^[a-z][a-z0-9+.-]*:/i.test(src),
  async load(src, ctx) {
    const path = src.startsWith('file://') ? fileURLToPath(src) : isAbsolute(src) ? src : resolve(ctx.baseDir, src)
    const info = await stat(path).catch(() => undefined)
    if (!info?.isFile()) throw new RenderError('E_ASSET_UNREADABLE', `no such file: ${path}`)
    if (info.size > ctx.maxBytes) throw new RenderError('E_ASSET_TOO_LARGE', `${path} is ${info.size} bytes; the limit is ${ctx.maxBytes}`)
    return path
  },
})
