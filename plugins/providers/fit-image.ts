import { createCanvas, type Image, loadImage } from '@napi-rs/canvas'
import { RenderError, type Size } from '../../core/index.js'

/**
 * Fits provider output to the exact requested size: scaled to cover it, centred, cropped — so a model that
 * only makes 1024×1024 or 1792×1024 still answers 1920×1080 — and encoded as PNG.
 */
export async function fitImage(data: Uint8Array, size: Size, vendor: string): Promise<Uint8Array> {
  let img: Image
  try {
    img = await loadImage(Buffer.from(data))
  } catch (e) {
    throw new RenderError('E_PROVIDER_FAILED', `${vendor}: returned data that is not an image (${(e as Error).message})`)
  }
  if (img.width === size.width && img.height === size.height && isPng(data)) return data
  const canvas = createCanvas(size.width, size.height)
  const g = canvas.getContext('2d')
  g.imageSmoothingQuality = 'high'
  const k = Math.max(size.width / img.width, size.height / img.height)
  const w = img.width * k,
    h = img.height * k
  g.drawImage(img, (size.width - w) / 2, (size.height - h) / 2, w, h)
  return canvas.encode('png')
}

const isPng = (d: Uint8Array) => d[0] === 0x89 && d[1] === 0x50 && d[2] === 0x4e && d[3] === 0x47

/** The listed size whose aspect ratio is closest to the request's (ties: the larger). */
export function nearestAspect(sizes: readonly Size[], want: Size): Size {
  const target = Math.log(want.width / want.height)
  return [...sizes].sort(
    (a, b) => Math.abs(Math.log(a.width / a.height) - target) - Math.abs(Math.log(b.width / b.height) - target) || b.width * b.height - a.width * a.height,
  )[0]!
}

/** A size with the request's aspect inside [min, max] on each side, in multiples of `step`. */
export function boundedSize(want: Size, min: number, max: number, step: number): Size {
  const k = Math.min(1, max / Math.max(want.width, want.height))
  const snap = (n: number) => Math.min(max, Math.max(min, Math.round((n * k) / step) * step))
  return { width: snap(want.width), height: snap(want.height) }
}
