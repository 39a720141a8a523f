import { defineAssetPlugin, RenderError, SvgAssetSchema, type Size } from '../../core/index.js'
import { RasteriserCrash, rasteriseSvg, svgSize } from '../lib/raster/resvg.js'
import { stillSource } from '../lib/raster/still-source.js'

/**
 * `svg`: raw SVG markup rasterised with resvg at the size it is drawn (vector-sharp at any scale), once per
 * clip, in a separate process (resvg aborts on some inputs). Its intrinsic size is the SVG's width/height
 * (or viewBox). The non-standard `opacity` that real templates send is honoured.
 */
export const svg = defineAssetPlugin({
  kind: 'asset',
  name: 'svg',
  schema: SvgAssetSchema,
  async prepare(params, ctx) {
    let size: Size
    try {
      const probe = await svgSize(params.src)
      size = { width: Math.max(1, Math.round(probe.width)), height: Math.max(1, Math.round(probe.height)) }
    } catch (e) {
      throw new RenderError('E_ASSET_UNREADABLE', `${ctx.path}.asset.src: not valid SVG (${(e as Error).message})`, { path: `${ctx.path}.asset.src` })
    }
    if (/<(script|foreignObject)\b/i.test(params.src)) ctx.warn('scripts and foreignObject in SVG are not rendered')
    const opacity = params.opacity ?? 1
    return {
      size,
      static: true,
      async open(gpu, need) {
        let pixels: Uint8Array
        try {
          pixels = await rasteriseSvg(params.src, need)
        } catch (e) {
          if (!(e instanceof RasteriserCrash)) throw e
          ctx.warn(`${e.message}; the clip is transparent`)
          pixels = new Uint8Array(need.width * need.height * 4)
        }
        if (opacity < 1) for (let i = 0; i < pixels.length; i++) pixels[i] = Math.round(pixels[i]! * opacity)
        return stillSource(gpu, pixels, need)
      },
    }
  },
})
