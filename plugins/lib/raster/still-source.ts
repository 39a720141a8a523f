import type { FrameSource, Gpu, Size, WasmPixels } from '../../../core/index.js'

/**
 * The source of a still an asset rasterised once (an image, a title, an SVG, a shape, an HTML page): premultiplied
 * RGBA at `size`, top row first. Its pixels are handed over as they are, so frames it covers, or titles it lays
 * over a frame made on the CPU, need no GL (core/render/cover.ts); its texture is made when GL first draws it.
 * Pixels in a memory of their own (`wasmPixels`: photos) are handed over as a fresh view each time; `closed` runs
 * when the source closes (an owner releasing them).
 */
export function stillSource(gpu: Gpu, pixels: Uint8Array | WasmPixels, size: Size, closed?: () => void): FrameSource {
  let texture: ReturnType<Gpu['texture']> | undefined
  let opaque: boolean | undefined
  const view = pixels instanceof Uint8Array ? () => pixels : () => pixels.view()
  return {
    size,
    frame: () => (texture ??= gpu.texture(view(), size.width, size.height)),
    pixels: view,
    // Asked once a frame for the layers that could cover it; scanned once.
    get opaque() {
      return (opaque ??= everyAlphaOpaque(view()))
    },
    close() {
      if (texture) gpu.release(texture)
      closed?.()
    },
  }
}

/** Whether every pixel's alpha is 255 (a JPEG always; a PNG or WebP when nothing in it is see-through). */
function everyAlphaOpaque(rgba: Uint8Array): boolean {
  for (let i = 3; i < rgba.length; i += 4) if (rgba[i] !== 255) return false
  return true
}
