import * as v from 'valibot'
import type { IntegrationStore } from '../../../service/destinations/integrations.js'
import { S3IntegrationSchema } from '../../../service/destinations/integrations.js'
import { ServiceError } from '../../../service/errors.js'
import { readJson } from '../body.js'
import { defineRoutes } from '../route.js'
import { named } from '../openapi-schemas.js'
import { ErrorBodySchema } from '../schemas.js'

const ShownSchema = v.object({
  provider: v.literal('s3'),
  access_key_id: v.string(),
  secret_access_key: v.pipe(v.string(), v.description('masked: never returned')),
  region: v.nullable(v.string()),
  endpoint: v.nullable(v.string()),
  encrypted: v.boolean(),
  updated_at: v.string(),
})
named('S3Integration', ShownSchema)
const err = { description: 'error', schema: ErrorBodySchema }
const none = () => new ServiceError('E_NOT_FOUND', 'no S3 integration is set')

/** Account-level integrations: the S3 credentials `output.destinations` of provider `s3` copy renders with. */
export function integrationRoutes(d: { integrations: IntegrationStore; bodyLimit: number }) {
  return defineRoutes([
    {
      method: 'put',
      path: '/v1/integrations/s3',
      operationId: 'setS3Integration',
      auth: 'key',
      live: "change the account's integrations",
      summary: 'Set the S3 credentials renders are copied to buckets with (`output.destinations`)',
      description:
        'Body `{ access_key_id, secret_access_key, region?, endpoint? }`. The secret is encrypted at rest when the server has `REELFORGE_SECRET_KEY` and is never returned. `endpoint` (an S3-compatible service) must not point into private networks unless the operator allows them.',
      body: S3IntegrationSchema,
      responses: { 200: { description: 'the integration, secret masked', schema: ShownSchema }, 400: err },
      handler: async (event, p) => d.integrations.setS3(p.accountId, await readJson(event, d.bodyLimit)),
    },
    {
      method: 'get',
      path: '/v1/integrations/s3',
      operationId: 'getS3Integration',
      auth: 'key',
      summary: 'The S3 integration (secret masked)',
      responses: { 200: { description: 'the integration', schema: ShownSchema }, 404: err },
      handler: async (_event, p) => {
        const shown = await d.integrations.shownS3(p.accountId)
        if (!shown) throw none()
        return shown
      },
    },
    {
      method: 'delete',
      path: '/v1/integrations/s3',
      operationId: 'deleteS3Integration',
      auth: 'key',
      live: "change the account's integrations",
      summary: 'Remove the S3 integration (renders naming an s3 destination are refused until it is set again)',
      responses: { 200: { description: 'removed', schema: v.object({ removed: v.literal(true) }) }, 404: err },
      handler: async (_event, p) => {
        if (!(await d.integrations.removeS3(p.accountId))) throw none()
        return { removed: true as const }
      },
    },
  ])
}
