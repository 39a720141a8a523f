import { createCanvas } from '@napi-rs/canvas'
import { anchorOf, cssColor, defineAssetPlugin, TitleAssetSchema, type Size, type TitleAsset } from '../../core/index.js'
import { canvasFont } from '../lib/fonts/canvas.js'
import { wrapText } from '../lib/text/wrap.js'
import { TITLE_SIZES, TITLE_STYLES } from './title-styles.js'
import { stillSource } from '../lib/raster/still-source.js'

/** Distance kept from the frame edges for non-centred positions, as a fraction of the frame height. */
const MARGIN = 0.04

/**
 * `title`: styled text on a transparent frame-sized layer, placed by the asset's own `position`/`offset`.
 * Rasterised once per clip when it first shows, uploaded as one texture; every frame reuses it.
 */
export const title = defineAssetPlugin({
  kind: 'asset',
  name: 'title',
  schema: TitleAssetSchema,
  async prepare(params, ctx) {
    const style = TITLE_STYLES[params.style]
    const { face, substituted } = ctx.fonts.resolve(style.family, style.weight)
    if (substituted) ctx.warn(`font "${style.family}" is not available; using "${face.family}"`)
    const frame = { width: ctx.frame.width, height: ctx.frame.height }
    const ySign = ctx.yAxis === 'up' ? -1 : 1
    return {
      size: frame,
      static: true,
      async open(gpu, need) {
        const pixels = drawTitle(params, frame, need, canvasFont(face, 1), ySign)
        return stillSource(gpu, pixels, need)
      },
    }
  },
})

/** Draws the title into premultiplied RGBA of size `need` (the frame, possibly scaled). */
function drawTitle(params: TitleAsset, frame: Size, need: Size, font1px: string, ySign: number): Uint8Array {
  const style = TITLE_STYLES[params.style]
  const k = need.height / frame.height
  const canvas = createCanvas(need.width, need.height)
  const g = canvas.getContext('2d')
  const px = Math.max(1, Math.round(TITLE_SIZES[params.size] * frame.height * style.scale * k))
  g.font = font1px.replace(/ 1px /, ` ${px}px `)
  g.letterSpacing = `${(style.letterSpacing ?? 0) * px}px`
  g.textBaseline = 'middle'
  const text = style.uppercase ? params.text.toUpperCase() : params.text
  const pad = params.background ? Math.round(0.35 * px) : 0
  const margin = MARGIN * need.height
  const lines = wrapText(text, need.width - 2 * margin - 2 * pad, (s) => g.measureText(s).width)
  const lineHeight = px * style.lineHeight
  const boxW = Math.max(...lines.map((l) => g.measureText(l).width)) + 2 * pad
  const boxH = lines.length * lineHeight + 2 * pad
  const [ax, ay] = anchorOf(params.position)
  const edgeX = ax === 0.5 ? 0 : margin * (ax === 0 ? 1 : -1)
  const edgeY = ay === 0.5 ? 0 : margin * (ay === 0 ? 1 : -1)
  const x = ax * (need.width - boxW) + edgeX + (params.offset?.x ?? 0) * need.width
  const y = ay * (need.height - boxH) + edgeY + ySign * (params.offset?.y ?? 0) * need.height
  if (params.background) {
    g.fillStyle = cssColor(params.background)
    g.fillRect(x, y, boxW, boxH)
  }
  if (style.shadow) {
    g.shadowColor = 'rgba(0, 0, 0, 0.6)'
    g.shadowBlur = px * 0.15
    g.shadowOffsetY = px * 0.05
  }
  g.fillStyle = cssColor(params.color ?? '#ffffff')
  g.textAlign = ax === 0 ? 'left' : ax === 1 ? 'right' : 'center'
  const textX = ax === 0 ? x + pad : ax === 1 ? x + boxW - pad : x + boxW / 2
  lines.forEach((line, i) => g.fillText(line, textX, y + pad + (i + 0.5) * lineHeight))
  return canvas.data()
}
