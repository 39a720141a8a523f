import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { ffmpegArgs, runFfmpeg } from '../core/index.js'
import { slideshowMedia } from './lib/media.js'

/**
 * The second video clip's source. `fractal` (the default) is a zooming Mandelbrot set: detail moving over the
 * whole frame at ≈ 14 Mbit/s, the bitrate of a phone's 1080p30 recording. `noise` is the worst case kept for
 * comparison: Conway's life at 1080p, ≈ 75 Mbit/s of random-looking pixels, whose H.264 CABAC decoding alone takes
 * ~30 ms a frame here.
 */
export type SecondVideo = 'fractal' | 'noise'
const SECOND: Record<SecondVideo, { file: string; lavfi: string }> = {
  fractal: { file: 'video-fractal.mp4', lavfi: 'mandelbrot=s=1920x1080:r=30' },
  noise: { file: 'video-b.mp4', lavfi: 'life=s=1920x1080:r=30:mold=10:ratio=0.5:death_color=#203040,scale=1920:1080,format=yuv420p' },
}

/** Generated sources for the mixed timeline: two 1080p30 videos and a soundtrack as long as the timeline. */
async function mixedMedia(dir: string, seconds: number, second: SecondVideo) {
  const images = await slideshowMedia(dir)
  const videos = [join(dir, 'video-a.mp4'), join(dir, SECOND[second].file)]
  const sources = ['testsrc2=s=1920x1080:r=30:d=16', SECOND[second].lavfi]
  for (const [i, v] of videos.entries()) {
    if (!existsSync(v))
      await runFfmpeg(ffmpegArgs`-v error -y -f lavfi -i ${sources[i]!} -f lavfi -i sine=frequency=${330 + 110 * i}:duration=16
        -t 16 -c:v libx264 -preset veryfast -crf 20 -pix_fmt yuv420p -c:a aac -shortest ${v}`)
  }
  const music = join(dir, `music-${seconds}.m4a`)
  if (!existsSync(music))
    await runFfmpeg(ffmpegArgs`-v error -y -f lavfi -i sine=frequency=220:duration=${seconds} -f lavfi -i anoisesrc=color=pink:amplitude=0.05:duration=${seconds}
      -filter_complex amix=inputs=2 -c:a aac ${music}`)
  return { images: [...images, images[0]!], videos, music }
}

const title = (text: string, start: number) => ({
  asset: {
    type: 'html',
    html: `<p>${text}</p>`,
    css: "p { font-family: 'Montserrat ExtraBold'; color: #ffffff; font-size: 64px; text-align: center; text-shadow: 2px 2px 8px #000000; }",
    width: 1400,
    height: 300,
  },
  start,
  length: 5,
  transition: { in: 'fade', out: 'fade' },
})

/**
 * The mixed benchmark timeline: per minute, two 15 s video clips, four 7.5 s images and three html titles
 * over them, with fades, on a soundtrack; `minutes` repeats the minute (1 = the 60 s case, 10 = 10 min).
 */
export async function mixedEdit(dir: string, minutes: number, second: SecondVideo = 'fractal') {
  const { images, videos, music } = await mixedMedia(dir, minutes * 60, second)
  const media: object[] = []
  const titles: object[] = []
  for (let m = 0; m < minutes; m++) {
    const t0 = m * 60
    const seq: [string, string, number][] = [
      ['video', videos[0]!, 15],
      ['image', images[0]!, 7.5],
      ['image', images[1]!, 7.5],
      ['video', videos[1]!, 15],
      ['image', images[2]!, 7.5],
      ['image', images[3]!, 7.5],
    ]
    let t = t0
    for (const [type, src, length] of seq) {
      media.push({ asset: type === 'video' ? { type, src, volume: 0.3 } : { type, src }, start: t, length, transition: { in: 'fade', out: 'fade' } })
      t += length
    }
    titles.push(title(`Minute ${m + 1}: video`, t0 + 2), title('Images with fades', t0 + 20), title('Rendered by reelforge', t0 + 40))
  }
  return {
    timeline: { background: '#000000', soundtrack: { src: music, effect: 'fadeInFadeOut', volume: 0.6 }, tracks: [{ clips: titles }, { clips: media }] },
    output: { format: 'mp4', resolution: '1080', fps: 30 },
  }
}
