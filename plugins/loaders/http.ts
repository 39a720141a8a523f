import { createHash, randomUUID } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { extname, join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { Transform } from 'node:stream'
import { defineLoaderPlugin, RenderError, type LoaderPlugin } from '../../core/index.js'
import { openDownload } from '../lib/net/download.js'
import { addressGuard, type NetworkPolicy } from '../lib/net/guard.js'

export interface HttpLoaderOptions {
  /** Which private addresses sources (and each redirect hop) may come from (default none: see `NetworkPolicy`). */
  network?: NetworkPolicy
}

/**
 * `http(s)://` sources, downloaded with Node's http client (see `openDownload`: why not undici) into a
 * content-addressed cache: bytes live once under `blobs/<sha256>`, and `urls/<sha256(url)>` points at them.
 * Size and time limits come from the plan.
 */
export function httpLoader(opts: HttpLoaderOptions = {}): LoaderPlugin {
  const guard = addressGuard(opts.network)
  return defineLoaderPlugin({
    kind: 'loader',
    name: 'http',
    priority: 10,
    test: (src) => /^https?:\/\//i.test(src),
    async load(src, ctx) {
      const urlKey = createHash('sha256').update(src).digest('hex')
      const pointer = join(ctx.cacheDir, 'urls', urlKey)
      const cached = await readFile(pointer, 'utf8').catch(() => undefined)
      if (cached && (await stat(cached).catch(() => undefined))?.isFile()) return cached

      await mkdir(join(ctx.cacheDir, 'blobs'), { recursive: true })
      await mkdir(join(ctx.cacheDir, 'urls'), { recursive: true })
      const tmp = join(ctx.cacheDir, 'blobs', `.${randomUUID()}.part`)
      const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(ctx.timeoutMs)])
      try {
        const res = await openDownload(src, { guard, signal, idleTimeoutMs: ctx.timeoutMs })
        const declared = res.declaredBytes ?? 0
        if (declared > ctx.maxBytes) {
          res.body.destroy()
          throw new RenderError('E_ASSET_TOO_LARGE', `${declared} bytes exceeds the ${ctx.maxBytes}-byte download limit`)
        }
        const hash = createHash('sha256')
        let bytes = 0
        const meter = new Transform({
          transform(chunk: Buffer, _enc, done) {
            bytes += chunk.length
            if (bytes > ctx.maxBytes) return done(new RenderError('E_ASSET_TOO_LARGE', `download exceeds the ${ctx.maxBytes}-byte limit`))
            hash.update(chunk)
            done(null, chunk)
          },
        })
        await pipeline(res.body, meter, createWriteStream(tmp))
        const ext = extname(new URL(src).pathname)
          .slice(0, 8)
          .replace(/[^.\w]/g, '')
        const blob = join(ctx.cacheDir, 'blobs', hash.digest('hex') + ext)
        await rename(tmp, blob)
        await writeFile(pointer, blob)
        return blob
      } catch (e) {
        await rm(tmp, { force: true })
        if (e instanceof RenderError) throw e
        if (signal.aborted && !ctx.signal.aborted) throw new RenderError('E_ASSET_UNREADABLE', `timed out after ${ctx.timeoutMs} ms`)
        throw new RenderError('E_ASSET_UNREADABLE', (e as Error).message, undefined, { cause: e })
      }
    },
  })
}
