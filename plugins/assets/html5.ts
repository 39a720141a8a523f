import { defineAssetPlugin, Html5AssetSchema } from '../../core/index.js'
import { stillSource } from '../lib/raster/still-source.js'

/**
 * `html5`: an HTML/CSS page laid out in the clip's box (`width`/`height` on the clip; default the frame)
 * on a transparent body, rasterised once. It is a still picture of the page as written: scripts are never
 * run and CSS animations do not play, which the job's warnings say (a page that builds itself with
 * JavaScript, as gsap timelines do, shows its starting state).
 */
export const html5 = defineAssetPlugin({
  kind: 'asset',
  name: 'html5',
  schema: Html5AssetSchema,
  async prepare(params, ctx) {
    const size = ctx.box ?? { width: ctx.frame.width, height: ctx.frame.height }
    if (params.js?.trim() || /<script\b/i.test(params.html)) ctx.warn('html5 is rendered statically: its scripts are not run')
    if (/@keyframes|\banimation\s*:|\btransition\s*:/i.test(`${params.css ?? ''}${params.html}`))
      ctx.warn('html5 is rendered statically: CSS animations and transitions show their starting state')
    const box = { html: params.html.replace(/<script\b[\s\S]*?<\/script>/gi, ''), css: params.css, ...size, position: 'topLeft' }
    return {
      size,
      static: true,
      defaultFit: 'none',
      async open(gpu, need) {
        const { renderHtml } = await import('../lib/html/render.js')
        let pixels: Uint8Array
        try {
          pixels = await renderHtml(box, need, ctx.fonts, ctx.warn)
        } catch (e) {
          // A page the static layout cannot handle must not fail the whole video.
          ctx.warn(`html5 could not be laid out (${(e as Error).message}); the clip is transparent`)
          pixels = new Uint8Array(need.width * need.height * 4)
        }
        return stillSource(gpu, pixels, need)
      },
    }
  },
})
