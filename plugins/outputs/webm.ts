import { createFfmpegSink, defineOutputPlugin } from '../../core/index.js'
import { audioBitrate, mapArgs, pictureArgs, vp9Args } from './args.js'

/** `webm`: VP9 + Opus, libvpx in its realtime mode with row multithreading. */
export const webm = defineOutputPlugin({
  kind: 'output',
  name: 'webm',
  mime: 'video/webm',
  extension: 'webm',
  takes: 'video',
  yuvFrames: true,
  open: (spec) =>
    createFfmpegSink(spec, [
      ...mapArgs(spec, ['-c:a', 'libopus', '-b:a', audioBitrate(spec.quality)]),
      ...pictureArgs(spec, 'yuv420p'),
      ...vp9Args(spec.quality, spec.cores),
      '-f',
      'webm',
      spec.path,
    ]),
})
