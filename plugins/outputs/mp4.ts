import { createFfmpegSink, defineOutputPlugin } from '../../core/index.js'
import { mapArgs, x264Args } from './x264.js'

/** `mp4`: H.264 (yuv420p) + AAC, `+faststart` so browsers play it while it downloads. */
export const mp4 = defineOutputPlugin({
  kind: 'output',
  name: 'mp4',
  mime: 'video/mp4',
  extension: 'mp4',
  takes: 'video',
  open: (spec) =>
    createFfmpegSink(spec, [...mapArgs(spec, ['-c:a', 'aac', '-b:a', '192k']), ...x264Args(spec.quality), '-movflags', '+faststart', '-f', 'mp4', spec.path]),
})
