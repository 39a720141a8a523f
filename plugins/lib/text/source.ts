import type { FrameSource, Gpu, Size } from '../../../core/index.js'

/**
 * A frame source for drawn content that changes now and then (animated text, captions): `keyOf(t)` names
 * what is shown at time `t`, and the canvas (`size` texels) is redrawn and re-uploaded only when that changes.
 */
export function redrawingSource(gpu: Gpu, size: Size, keyOf: (t: number) => string, draw: (t: number) => Uint8Array | null): FrameSource {
  const texture = gpu.texture(null, size.width, size.height)
  let shown: string | undefined
  let empty = true
  return {
    // A function of t alone: any order is fine.
    anyOrder: true,
    frame(t) {
      const key = keyOf(t)
      if (key !== shown) {
        shown = key
        const pixels = draw(t)
        empty = !pixels
        if (pixels) gpu.update(texture, pixels)
      }
      return empty ? null : texture
    },
    close: () => gpu.release(texture),
  }
}
