import { createHash } from 'node:crypto'
import { cssColor, defineAssetPlugin, HtmlAssetSchema } from '../../core/index.js'
import { stillSource } from '../lib/raster/still-source.js'

/**
 * Rasterised html boxes, shared by identical clips (oldest dropped first past 64 MB), with the warnings
 * their layout gave: a clip served from the cache — in a later render too — still says what it left out.
 */
type Raster = { pixels: Uint8Array; warnings: string[] }
const cache = new Map<string, { raster: Promise<Raster>; bytes: number }>()
let cachedBytes = 0
const CACHE_LIMIT = 64 * 1024 * 1024

function rasterise(key: string, bytes: number, make: (warn: (m: string) => void) => Promise<Uint8Array>): Promise<Raster> {
  const hit = cache.get(key)
  if (hit) return hit.raster
  const warnings: string[] = []
  const raster = make((m) => warnings.push(m)).then((pixels) => ({ pixels, warnings }))
  cache.set(key, { raster, bytes })
  cachedBytes += bytes
  raster.catch(() => cache.delete(key) && (cachedBytes -= bytes))
  for (const [old, entry] of cache) {
    if (cachedBytes <= CACHE_LIMIT || old === key) break
    cache.delete(old)
    cachedBytes -= entry.bytes
  }
  return raster
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
    let warned = false // a clip opened again in one render warns once
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
        const { pixels, warnings } = await rasterise(key, need.width * need.height * 4, async (warn) =>
          (await import('../lib/html/render.js')).renderHtml(box, need, ctx.fonts, warn),
        )
        if (!warned) warnings.forEach((m) => ctx.warn(m))
        warned = true
        return stillSource(gpu, pixels, need)
      },
    }
  },
})
