import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { decodeFrames } from './frames.js'
import { lavfi, solidPng } from './media.js'

/**
 * The edit preview tests scrub: a moving 30 fps clip in a 25 fps edit (trimmed, fading out), a picture wiping
 * in after it, a title fading over both, a text box, on a blue background — 6 s at 320×180. `title` changes the
 * title's text.
 */
export async function previewFixture(dir: string) {
  const video = await lavfi('testsrc2=size=320x180:rate=30:duration=5', join(dir, 'moving.mp4'), ['-c:v', 'libx264', '-g', '30', '-pix_fmt', 'yuv420p'])
  const picture = await solidPng(join(dir, 'picture.png'), 320, 180, '#20c040', { color: '#ffffff', size: 60 })
  const edit = (title = 'Hello') => ({
    timeline: {
      background: '#0000ff',
      tracks: [
        {
          clips: [
            { asset: { type: 'title', text: title, style: 'minimal', size: 'small', position: 'top' }, start: 0.5, length: 4, transition: { in: 'fade' } },
          ],
        },
        {
          clips: [
            {
              asset: { type: 'text', text: 'Day one', font: { size: 20, color: '#ffff00' }, width: 140, height: 40 },
              start: 2,
              length: 4,
              position: 'bottomLeft',
            },
          ],
        },
        {
          clips: [
            { asset: { type: 'video', src: video, trim: 0.5 }, start: 0, length: 3.5, transition: { out: 'fade' } },
            { asset: { type: 'image', src: picture }, start: 3, length: 3, transition: { in: 'wipeRight' } },
          ],
        },
      ],
    },
    output: { format: 'mp4', size: { width: 320, height: 180 }, fps: 25 },
  })
  return { video, picture, edit }
}

/** The RGB pixels of a PNG (as the client receives it), decoded by ffmpeg. */
export async function pngPixels(png: Uint8Array, dir: string, width = 320, height = 180): Promise<Uint8Array> {
  const path = join(dir, `decode-${Math.random().toString(36).slice(2)}.png`)
  writeFileSync(path, png)
  return (await decodeFrames(path, width, height)).frame(0)
}

/** How two RGBA pictures differ: the largest difference of any channel, and the bounding box of the pixels that differ. */
export function pixelDiff(a: Uint8Array, b: Uint8Array, width = 320) {
  let max = 0
  const box = { x0: Infinity, y0: Infinity, x1: -1, y1: -1 }
  for (let i = 0; i < a.length; i++) {
    if (i % 4 === 3) continue
    const d = Math.abs(a[i]! - b[i]!)
    if (d > max) max = d
    if (d > 2) {
      const p = i >> 2
      const x = p % width
      const y = Math.floor(p / width)
      box.x0 = Math.min(box.x0, x)
      box.y0 = Math.min(box.y0, y)
      box.x1 = Math.max(box.x1, x)
      box.y1 = Math.max(box.y1, y)
    }
  }
  return { max, box: box.x1 < 0 ? undefined : box }
}
