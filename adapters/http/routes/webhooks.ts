import * as v from 'valibot'
import type { NetworkPolicy } from '../../../plugins/index.js'
import { ServiceError } from '../../../service/errors.js'
import type { KeyStore } from '../../../service/accounts/keys.js'
import { DELIVERY_STATUSES } from '../../../service/api-types.js'
import type { WebhookOutbox } from '../../../service/webhooks/outbox.js'
import { WebhookConfigSchema, type Webhooks } from '../../../service/webhooks/events.js'
import { authenticate, requireLive } from '../auth.js'
import { checkTargetUrl, parseBody, readJson } from '../body.js'
import { queryParams } from '../query.js'
import { defineRoutes } from '../route.js'
import { ErrorBodySchema } from '../schemas.js'

const ShownSchema = v.object({ url: v.string(), events: v.array(v.string()), secret: v.string() })
const DeliverySchema = v.object({
  id: v.string(), event: v.string(), target: v.picklist(['callback', 'global']), url: v.string(), status: v.picklist(DELIVERY_STATUSES),
  attempts: v.number(), retry: v.number(), next_attempt_at: v.nullable(v.string()), last_status: v.nullable(v.number()), last_error: v.nullable(v.string()),
  created_at: v.string(), updated_at: v.string(), delivered_at: v.nullable(v.string()), payload: v.unknown(),
  attempt_log: v.array(v.object({ attempt: v.number(), at: v.string(), status: v.nullable(v.number()), error: v.nullable(v.string()), duration_ms: v.number() })),
})
const err = { description: 'error', schema: ErrorBodySchema }

/** The global webhook, the signing secret of callbacks, and the delivery log with replay. */
export function webhookRoutes(d: { keys: KeyStore; webhooks: Webhooks; outbox: WebhookOutbox; bodyLimit: number; network: NetworkPolicy }) {
  return defineRoutes([
    {
      method: 'put',
      path: '/v1/webhooks',
      summary: 'Set the global webhook',
      description: 'Body `{ url, events, secret }`. Deliveries are POSTs of `{ event, timestamp, data }` signed with `x-reelforge-signature: sha256=<hex HMAC-SHA256 of the body>`.',
      body: WebhookConfigSchema,
      responses: { 200: { description: 'the webhook, secret masked', schema: ShownSchema }, 400: err, 401: err, 403: err },
      handler: async (event) => {
        const p = await authenticate(event, d.keys)
        requireLive(p, 'set the account\'s global webhook')
        const body = parseBody(WebhookConfigSchema, await readJson(event, d.bodyLimit))
        await checkTargetUrl('url', body.url, d.network)
        await d.webhooks.set(p.accountId, body)
        return await d.webhooks.shown(p.accountId)
      },
    },
    {
      method: 'get',
      path: '/v1/webhooks',
      summary: 'The global webhook (secret masked)',
      responses: { 200: { description: 'the webhook', schema: ShownSchema }, 401: err, 404: err },
      handler: async (event) => {
        const shown = await d.webhooks.shown((await authenticate(event, d.keys)).accountId)
        if (!shown) throw new ServiceError('E_NOT_FOUND', 'no global webhook is set')
        return shown
      },
    },
    {
      method: 'delete',
      path: '/v1/webhooks',
      summary: 'Remove the global webhook',
      responses: { 200: { description: 'removed' }, 401: err, 403: err, 404: err },
      handler: async (event) => {
        const p = await authenticate(event, d.keys)
        requireLive(p, 'remove the account\'s global webhook')
        if (!await d.webhooks.remove(p.accountId)) throw new ServiceError('E_NOT_FOUND', 'no global webhook is set')
        return { removed: true }
      },
    },
    {
      method: 'post',
      path: '/v1/webhooks/secret',
      summary: 'Rotate the signing secret of per-job callbacks; the new secret is shown this once',
      responses: { 200: { description: 'the new secret', schema: v.object({ secret: v.string() }) }, 401: err, 403: err },
      handler: async (event) => {
        const p = await authenticate(event, d.keys)
        requireLive(p, 'rotate the account\'s signing secret')
        return { secret: await d.webhooks.rotateSigningSecret(p.accountId) }
      },
    },
    {
      method: 'get',
      path: '/v1/webhooks/deliveries',
      summary: 'The delivery log, newest first (sandbox keys: deliveries of sandbox work only)',
      query: { status: 'pending | delivered | failed', event: 'an event name, e.g. render.completed', limit: '1–200 (default 50)' },
      responses: { 200: { description: 'deliveries', schema: v.object({ deliveries: v.array(DeliverySchema) }) }, 400: err, 401: err },
      handler: async (event) => {
        const p = await authenticate(event, d.keys)
        const q = queryParams(event)
        return { deliveries: await d.outbox.list(p.accountId, { status: q.oneOf('status', DELIVERY_STATUSES), event: q.string('event'), limit: q.limit(50, 200), sandboxOnly: p.sandbox }) }
      },
    },
    {
      method: 'post',
      path: '/v1/webhooks/deliveries/:id/replay',
      summary: 'Send a delivery again now (with a fresh retry schedule)',
      responses: { 200: { description: 'the delivery', schema: DeliverySchema }, 401: err, 404: err },
      handler: async (event) => {
        const p = await authenticate(event, d.keys)
        const delivery = await d.outbox.replay(p.accountId, event.context.params?.id ?? '', p.sandbox)
        if (!delivery) throw new ServiceError('E_NOT_FOUND', `no delivery ${event.context.params?.id}`)
        return delivery
      },
    },
  ])
}
