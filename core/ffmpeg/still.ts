import type { Size } from '../plugin.js'
import { lastLines, spawnFfmpeg } from './run.js'
import { RenderError } from '../errors.js'

/**
 * The filter that brings composited frames to an `output.scaleTo` size: every picture scaled after drawing (the
 * image outputs, GIF, posters and thumbnails, a preview session's frames) goes through this one, so they agree.
 */
export const scaleToFilter = (to: Size): string => `scale=${to.width}:${to.height}:flags=bicubic`

/**
 * Encodes one raw RGBA frame (top row first) to an image file (format from the extension: .jpg, .png,
 * .bmp), optionally scaled. Used for posters and thumbnails captured during a render.
 */
export async function writeStill(rgba: Uint8Array, frame: Size, path: string, scaleTo?: Size): Promise<void> {
  const scale = scaleTo ? ['-vf', scaleToFilter(scaleTo)] : []
  const quality = /\.jpe?g$/i.test(path) ? ['-q:v', '2'] : []
  const ff = spawnFfmpeg(
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgba',
      '-s',
      `${frame.width}x${frame.height}`,
      '-i',
      'pipe:0',
      ...scale,
      ...quality,
      '-frames:v',
      '1',
      '-update',
      '1',
      path,
    ],
    { stdin: true },
  )
  ff.child.stdin!.on('error', () => {})
  ff.child.stdin!.end(rgba)
  const code = await ff.exited
  if (code !== 0) throw new RenderError('E_OUTPUT_FAILED', `cannot write ${path}: ${lastLines(ff.stderr())}`)
}
