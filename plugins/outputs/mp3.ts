import { createFfmpegSink, defineOutputPlugin } from '../../core/index.js'
import { audioBitrate } from './args.js'

/** `mp3`: the mixed sound only (no frames are composited). */
export const mp3 = defineOutputPlugin({
  kind: 'output',
  name: 'mp3',
  mime: 'audio/mpeg',
  extension: 'mp3',
  takes: 'audio',
  open: (spec) =>
    createFfmpegSink(spec, ['-map', '[aout]', '-c:a', 'libmp3lame', '-b:a', audioBitrate(spec.quality), '-f', 'mp3', spec.path], { videoInput: false }),
})
