import type { Size } from '../plugin.js'
import type { AspectRatio, OutputSettings, Resolution } from '../schema/output.js'

/** 16:9 base sizes per resolution (SHOTSTACK.md §6.1). */
const BASE: Record<Resolution, Size> = {
  preview: { width: 512, height: 288 },
  mobile: { width: 640, height: 360 },
  sd: { width: 1024, height: 576 },
  hd: { width: 1280, height: 720 },
  '1080': { width: 1920, height: 1080 },
  '4k': { width: 3840, height: 2160 },
}

/** The output fields that decide its sizes. */
type Sizing = Pick<OutputSettings, 'size' | 'resolution' | 'aspectRatio' | 'scaleTo'>

const even = (n: number) => Math.max(2, 2 * Math.round(n / 2))

/**
 * Pixel size for a resolution and aspect ratio, derived from the 16:9 base as Shotstack's own editor does
 * (9:16 = H×W, 1:1 = H×H, 4:5 = H·4/5×H, 4:3 = H·4/3×H), rounded to even numbers for yuv420p.
 */
export function sizeFor(resolution: Resolution, aspect: AspectRatio = '16:9'): Size {
  const { width: W, height: H } = BASE[resolution]
  switch (aspect) {
    case '16:9':
      return { width: W, height: H }
    case '9:16':
      return { width: H, height: W }
    case '1:1':
      return { width: H, height: H }
    case '4:5':
      return { width: even((H * 4) / 5), height: H }
    case '4:3':
      return { width: even((H * 4) / 3), height: H }
  }
}

/** The output frame size: explicit `size`, else `resolution` × `aspectRatio` (default hd, the seed's). */
export function outputSize(output: Sizing): Size {
  if (output.size) return { width: even(output.size.width), height: even(output.size.height) }
  return sizeFor(output.resolution ?? 'hd', output.aspectRatio ?? '16:9')
}

/**
 * The file's picture size where `output.scaleTo` asks for another than the frame (the edit is laid out at its
 * own size, then scaled): the resolution × aspect ratio; for a custom `size`, that size scaled to fit the
 * resolution's own box in the size's orientation, aspect kept (preview: 1280×720 → 512×288, 1080×1920 → 288×512,
 * 1200×800 → 432×288) — never more pixels than the resolution has, however long and thin the size.
 */
export function scaleToSize(output: Sizing): Size | undefined {
  if (!output.scaleTo) return undefined
  const frame = outputSize(output)
  let to = sizeFor(output.scaleTo, output.aspectRatio ?? '16:9')
  if (output.size) {
    const { width: long, height: short } = BASE[output.scaleTo]
    const [w, h] = frame.width >= frame.height ? [long, short] : [short, long]
    const k = Math.min(w / frame.width, h / frame.height)
    to = { width: even(frame.width * k), height: even(frame.height * k) }
  }
  return to.width === frame.width && to.height === frame.height ? undefined : to
}

/** The seed's default is 25 fps; Shotstack's preview resolution defaults to 15. */
export function outputFps(output: OutputSettings): number {
  return output.fps ?? (output.resolution === 'preview' ? 15 : 25)
}

/** ffmpeg's exact spelling of a frame rate: 29.97 → `30000/1001`. */
export function fpsRational(fps: number): string {
  const ntsc = [23.976, 29.97, 59.94].find((n) => Math.abs(n - fps) < 1e-6)
  return ntsc ? `${Math.round(ntsc * 1.001) * 1000}/1001` : String(fps)
}
