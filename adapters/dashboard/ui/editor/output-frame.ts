import { getIn, isObj, num, type Obj } from './edit-doc.js'

// The output's frame size and rate as the renderer derives them (core/plan/output-size.ts: `outputSize`,
// `sizeFor`, `outputFps`), mirrored here because that module's types reach into the whole core;
// test/dashboard/editor-layout.test.ts holds the two to the same answers.

type Size = { width: number; height: number }
const BASE: Record<string, Size> = {
  preview: { width: 512, height: 288 },
  mobile: { width: 640, height: 360 },
  sd: { width: 1024, height: 576 },
  hd: { width: 1280, height: 720 },
  '1080': { width: 1920, height: 1080 },
  '4k': { width: 3840, height: 2160 },
}
const even = (n: number) => Math.max(2, 2 * Math.round(n / 2))

/** `resolution` × `aspectRatio`, from the 16:9 base as Shotstack's editor does. */
export function sizeFor(resolution: string, aspect = '16:9'): Size {
  const { width: W, height: H } = BASE[resolution] ?? BASE.hd!
  if (aspect === '9:16') return { width: H, height: W }
  if (aspect === '1:1') return { width: H, height: H }
  if (aspect === '4:5') return { width: even((H * 4) / 5), height: H }
  if (aspect === '4:3') return { width: even((H * 4) / 3), height: H }
  return { width: W, height: H }
}

/** The frame the edit lays out in: `output.size`, else `resolution` × `aspectRatio` (default hd). */
export function outputSize(output: unknown): Size {
  const o = isObj(output) ? output : {}
  const w = num(getIn(o, ['size', 'width']))
  const h = num(getIn(o, ['size', 'height']))
  if (w && h) return { width: even(w), height: even(h) }
  return sizeFor(typeof o.resolution === 'string' ? o.resolution : 'hd', typeof o.aspectRatio === 'string' ? o.aspectRatio : '16:9')
}

/** Frames per second: `output.fps`, else 15 at `preview` resolution and 25 otherwise. */
export function outputFps(output: unknown): number {
  const o = isObj(output) ? output : {}
  return num(o.fps) ?? (o.resolution === 'preview' ? 15 : 25)
}

/** The edit's output frame and rate. */
export const frameOf = (edit: Obj) => ({ ...outputSize(edit.output), fps: outputFps(edit.output) })
