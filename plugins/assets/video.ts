import { defineAssetPlugin, VideoAssetSchema } from '../../core/index.js'
import { prepareVideo, probeMedia } from '../lib/video/prepare-video.js'
import { prepareGeneratedVideo } from './generated-video.js'

/**
 * `video`: frames from a native ffmpeg decoder per clip (a source used twice gets two decoders). ffmpeg
 * seeks to `trim`, retimes by `speed`, resamples to the output fps and scales to the drawn size, so frame
 * k of the clip shows source time `trim + k·speed/fps`. After the source ends the clip shows nothing.
 * The clip's sound joins the render's audio graph with its `volume` and `volumeEffect`. With a `prompt` (and no
 * `src`), the clip comes from the render's video engine (generated-video.ts).
 */
export const video = defineAssetPlugin({
  kind: 'asset',
  name: 'video',
  schema: VideoAssetSchema,
  async prepare(params, ctx) {
    if (!params.src && params.prompt)
      return prepareGeneratedVideo(
        { prompt: params.prompt, image: params.inputSrc, duration: params.duration, aspectRatio: params.aspectRatio, model: params.model },
        ctx,
      )
    // The schema holds a src where there is no prompt (sourceOrPrompt, assets-media.ts).
    const src = params.src!
    const path = await ctx.load(src)
    return prepareVideo(
      path,
      await probeMedia(path, src, ctx),
      { src: params.src, trim: params.trim, speed: params.speed, volume: params.volume, volumeEffect: params.volumeEffect },
      ctx,
    )
  },
})
