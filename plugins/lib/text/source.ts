import type { FrameSource, Gpu, Size } from '../../../core/index.js'

/**
 * A frame source for drawn content that changes now and then (animated text, captions): `keyOf(t)` names
 * what is shown at time `t`, and the canvas (`size` texels) is redrawn and re-uploaded only when that changes.
 */
export function redrawingSource(gpu: Gpu, size: Size, keyOf: (t: number) => string, draw: (t: number) => Uint8Array | null): FrameSource {
  const texture = gpu.texture(null, size.width, size.height)
  let shown: string | undefined
  let current: Uint8Array | null = null
  const frame = (t: number) => {
    const key = keyOf(t)
    if (key !== shown) {
      shown = key
      current = draw(t)
      if (current) gpu.update(texture, current)
    }
    return current ? texture : null
  }
  return {
    // A function of t alone: any order is fine.
    anyOrder: true,
    frame,
    // The same pixels, for blending on the CPU over a frame made there (core/render/cover-frames.ts).
    pixels: (t) => (frame(t), current),
    close: () => gpu.release(texture),
  }
}
