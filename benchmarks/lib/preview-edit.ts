import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { ffmpegArgs, runFfmpeg } from '../../core/index.js'
import { slideshowMedia } from './media.js'

/**
 * A camera-like clip: 1080p30 H.264 (High profile, no B-frames, a key frame every second, ~13 Mbit/s — what a
 * phone records), showing a zooming Mandelbrot set so every frame differs. Generated once (it takes ~20 s).
 */
async function cameraClip(dir: string): Promise<string> {
  const file = join(dir, 'camera-1080p30.mp4')
  if (!existsSync(file))
    await runFfmpeg(ffmpegArgs`-v error -y -f lavfi -i mandelbrot=s=1920x1080:r=30 -f lavfi -i sine=frequency=440:duration=10 -t 10
      -c:v libx264 -preset veryfast -profile:v high -g 30 -bf 0 -b:v 12M -maxrate 14M -bufsize 14M -pix_fmt yuv420p -c:a aac -shortest ${file}`)
  return file
}

/** A 400×200 logo with transparent corners (PNG with alpha). */
async function logo(dir: string): Promise<string> {
  const file = join(dir, 'logo.png')
  if (!existsSync(file))
    await runFfmpeg(ffmpegArgs`-v error -y -f lavfi -i color=c=black@0.0:s=400x200,format=rgba
      -vf drawbox=x=20:y=20:w=360:h=160:color=orange@0.9:t=fill,drawbox=x=60:y=60:w=280:h=80:color=white@1:t=fill -frames:v 1 ${file}`)
  return file
}

/**
 * The typical 6-clip edit an editor previews, 12 s at 25 fps and preview resolution (512×288): a camera clip
 * (trimmed, fading out), two photos (a fade and a wipe in, a slow zoom), a logo with alpha over everything, a
 * title and a text box. Sources are local files (`--allow-files dir`).
 */
export async function previewEdit(dir: string) {
  mkdirSync(dir, { recursive: true })
  const [photo1, photo2] = await slideshowMedia(dir)
  const camera = await cameraClip(dir)
  const mark = await logo(dir)
  return {
    timeline: {
      background: '#000000',
      tracks: [
        {
          clips: [
            {
              asset: { type: 'title', text: 'Summer at the coast', style: 'minimal', size: 'large' },
              start: 0.5,
              length: 3.5,
              transition: { in: 'fade', out: 'fade' },
            },
            {
              asset: { type: 'text', text: 'Day one', font: { family: 'Montserrat', size: 40, color: '#ffffff', weight: 700 }, width: 400, height: 80 },
              start: 6,
              length: 5,
              position: 'bottom',
              offset: { y: -0.05 },
            },
          ],
        },
        { clips: [{ asset: { type: 'image', src: mark }, start: 0, length: 12, scale: 0.2, position: 'topRight', offset: { x: -0.02, y: 0.03 } }] },
        {
          clips: [
            { asset: { type: 'video', src: camera, trim: 1, volume: 0.5 }, start: 0, length: 6.5, transition: { out: 'fade' } },
            { asset: { type: 'image', src: photo1 }, start: 6, length: 3.5, transition: { in: 'fade' }, effect: 'zoomIn' },
            { asset: { type: 'image', src: photo2 }, start: 9, length: 3, transition: { in: 'wipeRight' } },
          ],
        },
      ],
    },
    output: { format: 'mp4', resolution: 'preview', fps: 25 },
  }
}
