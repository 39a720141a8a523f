import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { ffmpegArgs, runFfmpeg } from '../../core/index.js'

/**
 * Sources like users' (generated once, kept in benchmarks/.media): four 4032×3024 JPEG "photos" (a 12 MP phone's
 * size, with grain, 3–5 MB each), two 1080p30 camera-like clips — moving detail under temporal sensor noise,
 * encoded at a phone's 12 Mbit/s (15 max, one key frame a second), tagged BT.709, with sound — and a soundtrack.
 */
export async function footageMedia(dir: string, seconds: number) {
  const photos: string[] = []
  const scenes = [
    'mandelbrot=s=4032x3024:maxiter=300:start_scale=2.2',
    'testsrc2=s=4032x3024',
    'cellauto=s=1008x756:rule=110,scale=4032:3024:flags=bicubic,hue=H=2,gblur=sigma=2',
    'mandelbrot=s=4032x3024:maxiter=200:start_x=-0.743643887037151:start_y=0.13182590420533:start_scale=0.02',
  ]
  for (const [i, scene] of scenes.entries()) {
    const file = join(dir, `photo${i + 1}.jpg`)
    // Grain first (a sensor's), then a slight blur (a lens's), then JPEG at a phone's quality.
    if (!existsSync(file)) await runFfmpeg(ffmpegArgs`-v error -y -f lavfi -i ${scene} -frames:v 1 -vf noise=alls=18:allf=u,gblur=sigma=0.8 -q:v 2 ${file}`)
    photos.push(file)
  }
  const clips = [join(dir, 'camera-a.mp4'), join(dir, 'camera-b.mp4')]
  // A pan across a photo and a zoom into a fractal: detail moving over the whole frame, noise on every frame.
  const pictures = [
    ffmpegArgs`-loop 1 -framerate 30 -i ${photos[0]!}`,
    ffmpegArgs`-f lavfi -i ${'mandelbrot=s=1920x1080:r=30:start_x=-0.743643887037151:start_y=0.13182590420533'}`,
  ]
  const motion = ["scale=2880:2160,crop=1920:1080:x='200+t*40':y='300+t*25',", '']
  for (const [i, clip] of clips.entries()) {
    if (existsSync(clip)) continue
    const graph = `[0:v]${motion[i]}noise=alls=12:allf=t+u,format=yuv420p[v];[1:a][2:a]amix=inputs=2[a]`
    await runFfmpeg([
      ...ffmpegArgs`-v error -y`,
      ...pictures[i]!,
      ...ffmpegArgs`-f lavfi -i sine=frequency=${330 + 110 * i}:duration=16 -f lavfi -i anoisesrc=color=brown:amplitude=0.1:duration=16`,
      ...ffmpegArgs`-filter_complex ${graph} -map [v] -map [a] -t 16 -c:v libx264 -preset veryfast -b:v 12M -maxrate 15M -bufsize 15M -g 30`,
      ...ffmpegArgs`-colorspace bt709 -color_primaries bt709 -color_trc bt709 -c:a aac -b:a 128k ${clip}`,
    ])
  }
  const music = join(dir, `footage-music-${seconds}.m4a`)
  if (!existsSync(music))
    await runFfmpeg(ffmpegArgs`-v error -y -f lavfi -i sine=frequency=220:duration=${seconds} -f lavfi -i anoisesrc=color=pink:amplitude=0.05:duration=${seconds}
      -filter_complex amix=inputs=2 -c:a aac ${music}`)
  return { photos, clips, music }
}
