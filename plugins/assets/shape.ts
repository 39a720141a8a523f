import { createCanvas } from '@napi-rs/canvas'
import { cssColor, defineAssetPlugin, ShapeAssetSchema } from '../../core/index.js'
import { withOpacity } from './text.js'
import { stillSource } from '../lib/raster/still-source.js'

/**
 * `shape`: a rectangle (with corner radius), circle or line, centred in its box (`width`/`height`, default
 * the frame), with a fill and a stroke. Drawn once per clip at its drawn size; laid out unscaled (fit `none`).
 */
export const shape = defineAssetPlugin({
  kind: 'asset',
  name: 'shape',
  schema: ShapeAssetSchema,
  async prepare(p, ctx) {
    const box = { width: p.width ?? ctx.box?.width ?? ctx.frame.width, height: p.height ?? ctx.box?.height ?? ctx.frame.height }
    if ((p.shape === 'rectangle' && !p.rectangle) || (p.shape === 'circle' && !p.circle) || (p.shape === 'line' && !p.line)) {
      ctx.warn(`shape "${p.shape}" has no "${p.shape}" dimensions; it fills its box`)
    }
    return {
      size: box,
      static: true,
      defaultFit: 'none',
      async open(gpu, need) {
        const canvas = createCanvas(need.width, need.height)
        const g = canvas.getContext('2d')
        g.scale(need.width / box.width, need.height / box.height)
        const cx = box.width / 2,
          cy = box.height / 2
        g.beginPath()
        if (p.shape === 'circle') g.arc(cx, cy, p.circle?.radius ?? Math.min(cx, cy), 0, Math.PI * 2)
        else if (p.shape === 'line') {
          const length = p.line?.length ?? box.width,
            thickness = p.line?.thickness ?? 2
          g.rect(cx - length / 2, cy - thickness / 2, length, thickness)
        } else {
          const w = p.rectangle?.width ?? box.width,
            h = p.rectangle?.height ?? box.height
          g.roundRect(cx - w / 2, cy - h / 2, w, h, Math.min(p.rectangle?.cornerRadius ?? 0, w / 2, h / 2))
        }
        if (p.fill?.color) {
          g.fillStyle = cssColor(withOpacity(p.fill.color, p.fill.opacity))
          g.fill()
        }
        if (p.stroke?.width) {
          g.strokeStyle = cssColor(p.stroke.color ?? '#000000')
          g.lineWidth = p.stroke.width
          g.stroke()
        }
        return stillSource(gpu, canvas.data(), need)
      },
    }
  },
})
