import * as v from 'valibot'
import { ServiceError } from '../../../service/errors.js'
import { BatchRequestSchema, ImageRequestSchema } from '../../../service/images/image-request.js'
import type { ImageService } from '../../../service/images/images.js'
import { readJson } from '../body.js'
import { queryParams } from '../query.js'
import { defineRoutes } from '../route.js'
import { named } from '../openapi-schemas.js'
import { ErrorBodySchema } from '../schemas.js'

export const ImageSchema = v.object({
  id: v.string(),
  status: v.picklist(['queued', 'running', 'complete', 'failed']),
  url: v.nullable(v.string()),
  model: v.string(),
  provider: v.nullable(v.string()),
  width: v.number(),
  height: v.number(),
  credits_used: v.number(),
  error: v.nullable(v.string()),
  created_at: v.string(),
})
named('Image', ImageSchema)
const BatchSchema = v.object({
  id: v.string(),
  status: v.picklist(['running', 'complete']),
  created_at: v.string(),
  credits_used: v.number(),
  items: v.array(v.object({ index: v.number(), status: v.string(), image: v.nullable(ImageSchema), error: v.nullable(v.string()) })),
})
named('ImageBatch', BatchSchema)
const err = { description: 'error', schema: ErrorBodySchema }

/** `POST /v1/ai/image`, bulk generation, and reading images and batches back. */
export function aiRoutes(d: { images: ImageService; bodyLimit: number }) {
  return defineRoutes([
    {
      method: 'post',
      path: '/v1/ai/image',
      auth: 'key',
      summary: 'Generate one image',
      description:
        "Models and their rules: dall-e-3 (styles natural|vivid), flux (natural; negative_prompt), stable-diffusion (natural|artistic; negative_prompt; steps 20–50). Sizes from the seed's table. `provider` says who made it (`sandbox` for sandbox keys and unconfigured models).",
      body: ImageRequestSchema,
      responses: {
        200: { description: 'the image', schema: ImageSchema },
        400: err,
        402: err,
        422: { description: "refused by the provider's content moderation", schema: ErrorBodySchema },
        429: err,
        502: err,
        504: err,
      },
      handler: async (event, p) => d.images.generate(p, d.images.parse(await readJson(event, d.bodyLimit))),
    },
    {
      method: 'post',
      path: '/v1/ai/image/batch',
      auth: 'key',
      summary: 'Generate up to 20 images in the background',
      description:
        'Body `{ requests: [image request, …] }`. Every item is validated (paths `requests[i].field`) and its credits held up front; items run concurrently within the model rate limits; each ends with an `ai.complete` or `ai.failed` webhook.',
      body: BatchRequestSchema,
      responses: { 202: { description: 'accepted', schema: v.object({ batchId: v.string() }) }, 400: err, 402: err },
      handler: async (event, p) => {
        const parsed = d.images.parseBatch(await readJson(event, d.bodyLimit))
        event.res.status = 202
        return { batchId: await d.images.submitBatch(p, parsed) }
      },
    },
    {
      method: 'get',
      path: '/v1/ai/image/batch/:id',
      auth: 'key',
      summary: "A batch: each item's image or error",
      responses: { 200: { description: 'the batch', schema: BatchSchema }, 404: err },
      handler: async (event, p) => {
        const batch = await d.images.batch(p.accountId, event.context.params?.id ?? '', p.sandbox)
        if (!batch) throw new ServiceError('E_NOT_FOUND', `no batch ${event.context.params?.id}`)
        return batch
      },
    },
    {
      method: 'get',
      path: '/v1/ai/image',
      auth: 'key',
      summary: "This account's images, newest first (sandbox keys: sandbox images only)",
      query: { limit: '1–200 (default 50)' },
      responses: { 200: { description: 'images', schema: v.object({ images: v.array(ImageSchema) }) }, 400: err },
      handler: async (event, p) => ({ images: await d.images.list(p.accountId, queryParams(event).limit(50, 200), p.sandbox) }),
    },
    {
      method: 'get',
      path: '/v1/ai/image/:id',
      auth: 'key',
      summary: 'One generated image',
      responses: { 200: { description: 'the image', schema: ImageSchema }, 404: err },
      handler: async (event, p) => {
        const image = await d.images.get(p.accountId, event.context.params?.id ?? '', p.sandbox)
        if (!image) throw new ServiceError('E_NOT_FOUND', `no image ${event.context.params?.id}`)
        return image
      },
    },
  ])
}
