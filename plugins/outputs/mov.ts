import { createFfmpegSink, defineOutputPlugin } from '../../core/index.js'
import { aacArgs, h264Args, mapArgs, pictureArgs, threadArgs } from './args.js'

/**
 * `mov`: H.264 + AAC in QuickTime; with `quality` high or veryhigh, ProRes 422 (10-bit 4:2:2, the editing
 * intermediate people ask mov for) with uncompressed PCM sound.
 */
export const mov = defineOutputPlugin({
  kind: 'output',
  name: 'mov',
  mime: 'video/quicktime',
  extension: 'mov',
  takes: 'video',
  async open(spec) {
    const prores = spec.quality === 'high' || spec.quality === 'veryhigh'
    const video = prores
      ? [
          ...['-c:v', 'prores_ks', '-profile:v', spec.quality === 'veryhigh' ? '3' : '2', '-pix_fmt', 'yuv422p10le', '-vendor', 'apl0'],
          // prores_ks leaves the frame headers' colour fields unset whatever the options say; this bitstream filter sets them.
          ...['-bsf:v', 'prores_metadata=color_primaries=bt709:color_trc=bt709:colorspace=bt709'],
          ...threadArgs(spec.cores),
        ]
      : await h264Args(spec)
    const audio = prores ? ['-c:a', 'pcm_s16le'] : aacArgs(spec)
    return createFfmpegSink(spec, [
      ...mapArgs(spec, audio),
      ...pictureArgs(spec, prores ? 'yuv422p10le' : 'yuv420p'),
      ...video,
      '-movflags',
      '+faststart',
      '-f',
      'mov',
      spec.path,
    ])
  },
})
