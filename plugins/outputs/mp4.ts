import { createFfmpegSink, defineOutputPlugin } from '../../core/index.js'
import { audioBitrate, mapArgs, pictureArgs, x264Args } from './args.js'

/** `mp4`: H.264 (yuv420p) + AAC, `+faststart` so browsers play it while it downloads. */
export const mp4 = defineOutputPlugin({
  kind: 'output',
  name: 'mp4',
  mime: 'video/mp4',
  extension: 'mp4',
  takes: 'video',
  open: (spec) =>
    createFfmpegSink(spec, [
      ...mapArgs(spec, ['-c:a', 'aac', '-b:a', audioBitrate(spec.quality)]),
      ...pictureArgs(spec, 'yuv420p'),
      ...x264Args(spec.quality, spec.cores),
      '-movflags',
      '+faststart',
      '-f',
      'mp4',
      spec.path,
    ]),
})
