import { defineAssetPlugin, ImageToVideoAssetSchema } from '../../core/index.js'
import { prepareGeneratedVideo } from './generated-video.js'

/**
 * `image-to-video` (Shotstack's deprecated AI form): `src` set in motion by the render's video engine, with the
 * optional `prompt` — a vendor where one is configured, else the sandbox's pan/zoom of the image (a warning
 * says so). The clip lasts its numeric `length` (5 s for `auto`).
 */
export const imageToVideo = defineAssetPlugin({
  kind: 'asset',
  name: 'image-to-video',
  schema: ImageToVideoAssetSchema,
  prepare: (params, ctx) => prepareGeneratedVideo({ prompt: params.prompt, image: params.src, aspectRatio: params.aspectRatio }, ctx),
})
