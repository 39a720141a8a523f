import { createFfmpegSink, defineOutputPlugin } from '../../core/index.js'
import { audioBitrate, mapArgs, scaleArgs, vp9Args } from './args.js'

/** `webm`: VP9 + Opus, libvpx in its realtime mode with row multithreading. */
export const webm = defineOutputPlugin({
  kind: 'output',
  name: 'webm',
  mime: 'video/webm',
  extension: 'webm',
  takes: 'video',
  open: (spec) =>
    createFfmpegSink(spec, [
      ...mapArgs(spec, ['-c:a', 'libopus', '-b:a', audioBitrate(spec.quality)]),
      ...scaleArgs(spec),
      ...vp9Args(spec.quality),
      '-f',
      'webm',
      spec.path,
    ]),
})
