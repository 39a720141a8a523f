import { rm, stat } from 'node:fs/promises'
import { createFfmpegSink, defineOutputPlugin, removePartial, runFfmpeg } from '../../core/index.js'
import { scaleFilter } from './args.js'

/**
 * `gif`: frames stream into a lossless intermediate (so memory stays flat however long the GIF), then two
 * ffmpeg passes: `palettegen` builds the best 256 colours, `paletteuse` dithers with them. `repeat`
 * (default true) loops forever; `repeat: false` plays once. GIFs carry no sound.
 */
export const gif = defineOutputPlugin({
  kind: 'output',
  name: 'gif',
  mime: 'image/gif',
  extension: 'gif',
  takes: 'video',
  sound: false,
  async open(spec) {
    const intermediate = `${spec.path}.frames.mkv`
    const palette = `${spec.path}.palette.png`
    const sink = await createFfmpegSink({ ...spec, audio: undefined, path: intermediate }, [
      '-c:v',
      'ffv1',
      '-level',
      '3',
      '-pix_fmt',
      'bgra',
      '-f',
      'matroska',
      intermediate,
    ])
    const cleanup = () => Promise.all([rm(intermediate, { force: true }), rm(palette, { force: true })])
    return {
      write: sink.write,
      async close() {
        try {
          await sink.close()
          const scale = scaleFilter(spec)
          await runFfmpeg(['-v', 'error', '-y', '-i', intermediate, '-vf', `${scale},palettegen=stats_mode=diff`, '-frames:v', '1', '-update', '1', palette], {
            signal: spec.signal,
            what: 'gif palettegen',
          })
          await runFfmpeg(
            [
              '-v',
              'error',
              '-y',
              '-i',
              intermediate,
              '-i',
              palette,
              '-lavfi',
              `[0:v]${scale}[x];[x][1:v]paletteuse=dither=bayer:bayer_scale=4:diff_mode=rectangle`,
              '-loop',
              spec.repeat === false ? '-1' : '0',
              '-f',
              'gif',
              spec.path,
            ],
            { signal: spec.signal, what: 'gif paletteuse' },
          )
          return { path: spec.path, bytes: (await stat(spec.path)).size }
        } finally {
          await cleanup()
        }
      },
      abort() {
        sink.abort()
        void cleanup().then(() => removePartial(spec.path))
      },
    }
  },
})
