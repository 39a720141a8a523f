import { defineAssetPlugin, ImageToVideoAssetSchema } from '../../core/index.js'
import { prepareStill } from './image.js'

/**
 * `image-to-video` (Shotstack's deprecated AI form): there is no video model here, so the image is shown
 * with a slow zoom (the clip's own `effect` wins), and the job says so in a warning.
 */
export const imageToVideo = defineAssetPlugin({
  kind: 'asset',
  name: 'image-to-video',
  schema: ImageToVideoAssetSchema,
  async prepare(params, ctx) {
    ctx.warn('image-to-video needs an AI video provider, which is not configured; the image is shown with a slow zoom')
    return { ...(await prepareStill(await ctx.load(params.src), ctx)), defaultEffect: 'zoomInSlow', static: false }
  },
})
