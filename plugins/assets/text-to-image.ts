import { defineAssetPlugin, TextToImageAssetSchema } from '../../core/index.js'
import { prepareStill } from './image.js'

/** `text-to-image` (Shotstack's deprecated AI form): `prompt` at `width`×`height` (default 1024²) through flux. */
export const textToImage = defineAssetPlugin({
  kind: 'asset',
  name: 'text-to-image',
  schema: TextToImageAssetSchema,
  async prepare(params, ctx) {
    const path = await ctx.generateImage({ prompt: params.prompt, model: 'flux', width: params.width ?? 1024, height: params.height ?? 1024 })
    return prepareStill(path, ctx)
  },
})
