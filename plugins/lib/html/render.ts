import juice from 'juice'
import satori from 'satori'
import type { FontBook, Size } from '../../../core/index.js'
import { alphaFirstHex, withoutImports } from './css.js'
import { toVNodes, type VNode } from './dom.js'
import { bindFonts } from './fonts.js'
import { RasteriserCrash, rasteriseSvg } from '../raster/resvg.js'

export interface HtmlBox {
  html: string
  css?: string
  width: number
  height: number
  /** Box fill (any accepted colour, already converted to CSS). */
  background?: string
  /** Where the content sits inside the box. */
  position: string
}

const JUSTIFY: Record<string, [string, string]> = {
  topLeft: ['flex-start', 'flex-start'],
  top: ['flex-start', 'center'],
  topRight: ['flex-start', 'flex-end'],
  left: ['center', 'flex-start'],
  center: ['center', 'center'],
  right: ['center', 'flex-end'],
  bottomLeft: ['flex-end', 'flex-start'],
  bottom: ['flex-end', 'center'],
  bottomRight: ['flex-end', 'flex-end'],
}

/**
 * Lays out HTML + CSS in a box and rasterises it: juice inlines the CSS, parse5 parses, satori lays out
 * (text becomes vector paths), resvg rasterises at `need` pixels. Returns premultiplied RGBA, as resvg does.
 */
export async function renderHtml(box: HtmlBox, need: Size, fonts: FontBook, warn: (m: string) => void): Promise<Uint8Array> {
  // One warning per asset however many sheets hold an @import.
  const said = new Set<string>()
  const note = (m: string) => said.has(m) || (said.add(m), warn(m))
  const html = box.html.replace(/<style\b[^>]*>[\s\S]*?<\/style\s*>/gi, (sheet) => withoutImports(sheet, note))
  const inlined = juice.inlineContent(alphaFirstHex(html), alphaFirstHex(withoutImports(box.css ?? '', note)), {
    applyStyleTags: true,
    removeStyleTags: true,
    preserveImportant: false,
  })
  const content = toVNodes(inlined, warn)
  const { fonts: satoriFonts, rootName } = bindFonts(content, undefined, fonts, warn)
  const [justify, align] = JUSTIFY[box.position] ?? JUSTIFY.center!
  const root: VNode = {
    type: 'div',
    props: {
      style: {
        display: 'flex',
        flexDirection: 'column',
        width: box.width,
        height: box.height,
        justifyContent: justify,
        alignItems: align,
        overflow: 'hidden',
        fontFamily: rootName,
        fontSize: 16,
        color: 'black',
        ...(box.background ? { backgroundColor: box.background } : {}),
      },
      children: [{ type: 'div', props: { style: { display: 'block', maxWidth: box.width }, children: content } }],
    },
  }
  let svg: string
  try {
    svg = await satori(root as never, { width: box.width, height: box.height, fonts: satoriFonts })
  } catch (e) {
    throw new Error(`html layout failed: ${(e as Error).message}`)
  }
  try {
    return await rasteriseSvg(withLayerAnchors(svg, box), need)
  } catch (e) {
    if (!(e instanceof RasteriserCrash)) throw e
    warn(`${e.message}; the box is left transparent`)
    return new Uint8Array(need.width * need.height * 4)
  }
}

/**
 * resvg panics on a masked, clipped or translucent group whose content lies wholly outside the canvas,
 * which is common here (text pushed out of its box by a tall line-height). An invisible rectangle over
 * the box inside each such group keeps the group's bounds non-empty; the rasteriser process is the
 * backstop for the cases this misses.
 */
function withLayerAnchors(svg: string, box: { width: number; height: number }): string {
  const anchor = `<rect x="0" y="0" width="${box.width}" height="${box.height}" fill="#000" fill-opacity="0"/>`
  return svg.replace(/<g\b([^>]*\b(?:mask|clip-path|filter|opacity)=[^>]*[^/])>/g, (tag) => tag + anchor)
}
