import type { FrameSource, Gpu, Size } from '../../../core/index.js'

/**
 * The source of a still an asset rasterised once (an image, a title, an SVG, a shape, an HTML page): premultiplied
 * RGBA at `size`, top row first. Its pixels are handed over as they are, so frames it covers, or titles it lays
 * over a frame made on the CPU, need no GL (core/render/cover.ts); its texture is made when GL first draws it.
 */
export function stillSource(gpu: Gpu, pixels: Uint8Array, size: Size): FrameSource {
  let texture: ReturnType<Gpu['texture']> | undefined
  let opaque: boolean | undefined
  return {
    frame: () => (texture ??= gpu.texture(pixels, size.width, size.height)),
    pixels: () => pixels,
    // Asked once a frame for the layers that could cover it; scanned once.
    get opaque() {
      return (opaque ??= everyAlphaOpaque(pixels))
    },
    close: () => texture && gpu.release(texture),
  }
}

/** Whether every pixel's alpha is 255 (a JPEG always; a PNG or WebP when nothing in it is see-through). */
function everyAlphaOpaque(rgba: Uint8Array): boolean {
  for (let i = 3; i < rgba.length; i += 4) if (rgba[i] !== 255) return false
  return true
}
