import type { FrameSource, Gpu, Size, Texture } from '../../../core/index.js'

/**
 * A frame source for drawn content that changes now and then (animated text, captions): `keyOf(t)` names
 * what is shown at time `t`, and the canvas (`size` texels) is redrawn only when that changes. Its texture is
 * made, and each drawing uploaded, only when GL draws it: a title blended on the CPU over a frame made there
 * (core/render/cover-frames.ts) never touches GL.
 */
export function redrawingSource(gpu: Gpu, size: Size, keyOf: (t: number) => string, draw: (t: number) => Uint8Array | null): FrameSource {
  let texture: Texture | undefined
  let shown: string | undefined
  let uploaded: string | undefined
  let current: Uint8Array | null = null
  const redraw = (t: number) => {
    const key = keyOf(t)
    if (key !== shown) {
      shown = key
      current = draw(t)
    }
    return key
  }
  return {
    // A function of t alone: any order is fine.
    anyOrder: true,
    size,
    frame(t) {
      const key = redraw(t)
      if (!current) return null
      texture ??= gpu.texture(null, size.width, size.height)
      if (uploaded !== key) gpu.update(texture, current), (uploaded = key)
      return texture
    },
    // The same pixels, for blending on the CPU over a frame made there.
    pixels: (t) => (redraw(t), current),
    close: () => texture && gpu.release(texture),
  }
}
