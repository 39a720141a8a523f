import { createFfmpegSink, defineOutputPlugin } from '../../core/index.js'
import { aacArgs, h264Args, mapArgs, pictureArgs } from './args.js'

/** `mp4`: H.264 (yuv420p; NVENC where it works, else x264) + AAC, `+faststart` so browsers play it while it downloads. */
export const mp4 = defineOutputPlugin({
  kind: 'output',
  name: 'mp4',
  mime: 'video/mp4',
  extension: 'mp4',
  takes: 'video',
  yuvFrames: true,
  open: async (spec) =>
    createFfmpegSink(spec, [
      ...mapArgs(spec, aacArgs(spec)),
      ...pictureArgs(spec, 'yuv420p'),
      ...(await h264Args(spec)),
      '-movflags',
      '+faststart',
      '-f',
      'mp4',
      spec.path,
    ]),
})
