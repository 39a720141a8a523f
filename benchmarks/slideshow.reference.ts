import { builtinFonts } from '../plugins/index.js'

/**
 * The slideshow as one hand-written ffmpeg filtergraph — the encode-bound reference: each still looped,
 * scaled and cropped to fill, cross-faded with xfade, the title drawn with drawtext in the same font.
 */
export function slideshowReferenceArgs(images: string[], size: { width: number; height: number }, out: string): string[] {
  const { width: W, height: H } = size
  const font = builtinFonts.find((f) => f.family === 'Montserrat' && f.weight === 600)!.path
  const inputs = images.flatMap((img) => ['-loop', '1', '-framerate', '30', '-t', '4', '-i', img])
  const fill = (i: number) => `[${i}:v]scale=${W}:${H}:force_original_aspect_ratio=increase,crop=${W}:${H},setsar=1,format=yuv420p[s${i}]`
  const size8 = Math.round(0.08 * H)
  const graph = [
    fill(0),
    fill(1),
    fill(2),
    `[s0]drawtext=fontfile=${font}:text='reelforge benchmark':fontsize=${size8}:fontcolor=white:x=(w-text_w)/2:y=(h-text_h)/2[t0]`,
    '[t0][s1]xfade=transition=fade:duration=1:offset=3[x1]',
    '[x1][s2]xfade=transition=fade:duration=1:offset=6[v]',
  ].join(';')
  return [
    '-v',
    'error',
    '-y',
    ...inputs,
    '-filter_complex',
    graph,
    '-map',
    '[v]',
    '-c:v',
    'libx264',
    '-preset',
    'medium',
    '-crf',
    '18',
    '-pix_fmt',
    'yuv420p',
    '-r',
    '30',
    '-movflags',
    '+faststart',
    out,
  ]
}
