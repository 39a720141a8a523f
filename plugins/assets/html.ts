import { createHash } from 'node:crypto'
import { cssColor, defineAssetPlugin, HtmlAssetSchema } from '../../core/index.js'

/** Rasterised html boxes, shared by identical clips (oldest dropped first past 64 MB). */
const cache = new Map<string, { pixels: Promise<Uint8Array>; bytes: number }>()
let cachedBytes = 0
const CACHE_LIMIT = 64 * 1024 * 1024

function rasterise(key: string, bytes: number, make: () => Promise<Uint8Array>): Promise<Uint8Array> {
  const hit = cache.get(key)
  if (hit) return hit.pixels
  const pixels = make()
  cache.set(key, { pixels, bytes })
  cachedBytes += bytes
  pixels.catch(() => cache.delete(key) && (cachedBytes -= bytes))
  for (const [old, entry] of cache) {
    if (cachedBytes <= CACHE_LIMIT || old === key) break
    cache.delete(old)
    cachedBytes -= entry.bytes
  }
  return pixels
}

/**
 * `html`: HTML + CSS laid out in a `width`×`height` box (text wraps inside it; default: the frame), with an
 * optional `background` and the content's `position` in the box. Laid out at its own pixel size (fit
 * `none` unless the clip says otherwise), rasterised once per distinct clip, then one texture.
 */
export const html = defineAssetPlugin({
  kind: 'asset',
  name: 'html',
  schema: HtmlAssetSchema,
  async prepare(params, ctx) {
    const size = { width: params.width ?? ctx.frame.width, height: params.height ?? ctx.frame.height }
    const box = {
      html: params.html,
      css: params.css,
      ...size,
      background: params.background ? cssColor(params.background) : undefined,
      position: params.position ?? 'center',
    }
    return {
      size,
      static: true,
      defaultFit: 'none',
      async open(gpu, need) {
        const fonts = ctx.fonts.faces().map((f) => `${f.family}:${f.weight}:${f.path}`)
        const key = createHash('sha1')
          .update(JSON.stringify([box, need, fonts]))
          .digest('hex')
        // satori, resvg and juice cost ~75 MB resident: load them only when an html clip is drawn.
        const pixels = await rasterise(key, need.width * need.height * 4, async () =>
          (await import('../lib/html/render.js')).renderHtml(box, need, ctx.fonts, ctx.warn),
        )
        const texture = gpu.texture(pixels, need.width, need.height)
        return { frame: () => texture, close: () => gpu.release(texture) }
      },
    }
  },
})
