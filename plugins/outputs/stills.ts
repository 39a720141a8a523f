import { createFfmpegSink, defineOutputPlugin, type OutputPlugin } from '../../core/index.js'
import { scaleArgs } from './args.js'

/** Shotstack's image formats: one frame, at `output.range.start` (default 0). */
function still(name: string, mime: string, codec: string[]): OutputPlugin {
  return defineOutputPlugin({
    kind: 'output',
    name,
    mime,
    extension: name,
    takes: 'still',
    open: (spec) =>
      createFfmpegSink({ ...spec, audio: undefined }, [...scaleArgs(spec), ...codec, '-frames:v', '1', '-update', '1', '-f', 'image2', spec.path]),
  })
}

export const jpg = still('jpg', 'image/jpeg', ['-c:v', 'mjpeg', '-q:v', '2', '-pix_fmt', 'yuvj444p'])
export const png = still('png', 'image/png', ['-c:v', 'png', '-pix_fmt', 'rgb24'])
export const bmp = still('bmp', 'image/bmp', ['-c:v', 'bmp', '-pix_fmt', 'bgr24'])
