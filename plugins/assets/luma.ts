import { defineAssetPlugin, LumaAssetSchema } from '../../core/index.js'
import { prepareStill } from './image.js'
import { isStill, prepareVideo, probeMedia } from '../lib/video/prepare-video.js'

/**
 * `luma`: a greyscale matte (video or still) that is not drawn: it masks the content clip it overlaps on its
 * own track — black hides, white shows — including the "tail" pattern where a short luma over the end of a
 * clip turns it into a transition to the track below.
 */
export const luma = defineAssetPlugin({
  kind: 'asset',
  name: 'luma',
  schema: LumaAssetSchema,
  async prepare(params, ctx) {
    const path = await ctx.load(params.src)
    const info = await probeMedia(path, params.src, ctx)
    const matte = isStill(info) ? await prepareStill(path, ctx) : { ...prepareVideo(path, info, { src: params.src, trim: params.trim }, ctx), audio: undefined }
    return { ...matte, luma: true }
  },
})
