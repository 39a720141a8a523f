import * as v from 'valibot'
import { ServiceError } from '../../../service/errors.js'
import { DELIVERY_STATUSES } from '../../../service/api-types.js'
import type { WebhookOutbox } from '../../../service/webhooks/outbox.js'
import { WebhookConfigSchema, type Webhooks } from '../../../service/webhooks/webhooks.js'
import { parseBody, readJson } from '../body.js'
import { queryParams } from '../query.js'
import { defineRoutes } from '../route.js'
import { named } from '../openapi-schemas.js'
import { ErrorBodySchema } from '../schemas.js'

const ShownSchema = v.object({ url: v.string(), events: v.array(v.string()), secret: v.string() })
export const DeliverySchema = v.object({
  id: v.string(),
  event: v.string(),
  target: v.picklist(['callback', 'global']),
  url: v.string(),
  status: v.picklist(DELIVERY_STATUSES),
  attempts: v.number(),
  retry: v.number(),
  next_attempt_at: v.nullable(v.string()),
  last_status: v.nullable(v.number()),
  last_error: v.nullable(v.string()),
  created_at: v.string(),
  updated_at: v.string(),
  delivered_at: v.nullable(v.string()),
  payload: v.unknown(),
  attempt_log: v.array(
    v.object({ attempt: v.number(), at: v.string(), status: v.nullable(v.number()), error: v.nullable(v.string()), duration_ms: v.number() }),
  ),
})
named('Webhook', ShownSchema)
named('Delivery', DeliverySchema)
const err = { description: 'error', schema: ErrorBodySchema }

/** The global webhook, the signing secret of callbacks, and the delivery log with replay. */
export function webhookRoutes(d: { webhooks: Webhooks; outbox: WebhookOutbox; bodyLimit: number }) {
  return defineRoutes([
    {
      method: 'put',
      path: '/v1/webhooks',
      auth: 'key',
      live: "set the account's global webhook",
      summary: 'Set the global webhook',
      description:
        'Body `{ url, events, secret }`. Deliveries are POSTs of `{ event, timestamp, data }` signed with `x-reelforge-signature: sha256=<hex HMAC-SHA256 of the body>`.',
      body: WebhookConfigSchema,
      responses: { 200: { description: 'the webhook, secret masked', schema: ShownSchema }, 400: err },
      handler: async (event, p) => {
        const body = parseBody(WebhookConfigSchema, await readJson(event, d.bodyLimit))
        await d.webhooks.set(p.accountId, body)
        return await d.webhooks.shown(p.accountId)
      },
    },
    {
      method: 'get',
      path: '/v1/webhooks',
      operationId: 'getWebhook',
      auth: 'key',
      summary: 'The global webhook (secret masked)',
      responses: { 200: { description: 'the webhook', schema: ShownSchema }, 404: err },
      handler: async (_event, p) => {
        const shown = await d.webhooks.shown(p.accountId)
        if (!shown) throw new ServiceError('E_NOT_FOUND', 'no global webhook is set')
        return shown
      },
    },
    {
      method: 'delete',
      path: '/v1/webhooks',
      auth: 'key',
      live: "remove the account's global webhook",
      summary: 'Remove the global webhook',
      responses: { 200: { description: 'removed' }, 404: err },
      handler: async (_event, p) => {
        if (!(await d.webhooks.remove(p.accountId))) throw new ServiceError('E_NOT_FOUND', 'no global webhook is set')
        return { removed: true }
      },
    },
    {
      method: 'post',
      path: '/v1/webhooks/secret',
      operationId: 'rotateSigningSecret',
      auth: 'key',
      live: "rotate the account's signing secret",
      summary: 'Rotate the signing secret of per-job callbacks; the new secret is shown this once',
      responses: { 200: { description: 'the new secret', schema: v.object({ secret: v.string() }) } },
      handler: async (_event, p) => ({ secret: await d.webhooks.rotateSigningSecret(p.accountId) }),
    },
    {
      method: 'get',
      path: '/v1/webhooks/deliveries',
      auth: 'key',
      summary: 'The delivery log, newest first (sandbox keys: deliveries of sandbox work only)',
      query: { status: 'pending | delivered | failed', event: 'an event name, e.g. render.completed', limit: '1–200 (default 50)' },
      responses: { 200: { description: 'deliveries', schema: v.object({ deliveries: v.array(DeliverySchema) }) }, 400: err },
      handler: async (event, p) => {
        const q = queryParams(event)
        return {
          deliveries: await d.outbox.list(p.accountId, {
            status: q.oneOf('status', DELIVERY_STATUSES),
            event: q.string('event'),
            limit: q.limit(50, 200),
            sandboxOnly: p.sandbox,
          }),
        }
      },
    },
    {
      method: 'post',
      path: '/v1/webhooks/deliveries/:id/replay',
      auth: 'key',
      summary: 'Send a delivery again now (with a fresh retry schedule)',
      responses: { 200: { description: 'the delivery', schema: DeliverySchema }, 404: err },
      handler: async (event, p) => {
        const delivery = await d.outbox.replay(p.accountId, event.context.params?.id ?? '', p.sandbox)
        if (!delivery) throw new ServiceError('E_NOT_FOUND', `no delivery ${event.context.params?.id}`)
        return delivery
      },
    },
  ])
}
