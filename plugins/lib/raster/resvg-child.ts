// The SVG rasteriser process. resvg aborts its whole process on some inputs (a masked or translucent shape
// lying entirely outside the canvas panics in Rust), so it runs here, away from the renderer.
import { Resvg } from '@resvg/resvg-js'
import { sanitizeSvg } from './svg-sanitize.js'

interface Request {
  id: number
  svg: string
  /** Pixel width to render at; absent: report the intrinsic size only. */
  width?: number
}

process.on('message', (m: Request) => {
  try {
    // The one place markup reaches resvg: nothing it names on disk is ever opened (see sanitizeSvg).
    const svg = new Resvg(sanitizeSvg(m.svg), m.width ? { fitTo: { mode: 'width', value: m.width } } : undefined)
    if (!m.width) return process.send!({ id: m.id, width: svg.width, height: svg.height })
    const image = svg.render()
    process.send!({ id: m.id, width: image.width, height: image.height, pixels: image.pixels })
  } catch (e) {
    process.send!({ id: m.id, error: (e as Error).message })
  }
})

// Messages that arrive before this listener exists are lost (ESM loads asynchronously): say when ready.
process.send!({ ready: true })
