import * as v from 'valibot'
import { createKey, revokeKey } from '../../../service/accounts/key-admin.js'
import type { KeyRecord, KeyStore } from '../../../service/accounts/keys.js'
import { parseBody, readJson } from '../body.js'
import { defineRoutes } from '../route.js'
import { named } from '../openapi-schemas.js'
import { ErrorBodySchema } from '../schemas.js'

const KeySchema = v.object({
  id: v.string(),
  account_id: v.string(),
  prefix: v.string(),
  sandbox: v.boolean(),
  admin: v.boolean(),
  created_at: v.string(),
  revoked_at: v.nullable(v.string()),
})
named('Key', KeySchema)
const CreateKeySchema = v.strictObject({
  sandbox: v.optional(v.boolean()),
  admin: v.optional(v.boolean()),
  account_id: v.optional(v.pipe(v.string(), v.uuid('must be an account id'))),
})
const err = { description: 'error', schema: ErrorBodySchema }
const toKey = (k: KeyRecord) => ({
  id: k.keyId,
  account_id: k.accountId,
  prefix: k.prefix,
  sandbox: k.sandbox,
  admin: k.admin,
  created_at: k.createdAt,
  revoked_at: k.revokedAt,
})

/**
 * Who the caller is, and key management for admin keys (the same operations as `reelforge keys`). `yAxis` is
 * the installation's /v1 offset.y convention, reported by /v1/me so clients (the dashboard) can say which it is.
 */
export function keyRoutes(d: { keys: KeyStore; bodyLimit: number; yAxis: 'down' | 'up' }) {
  return defineRoutes([
    {
      method: 'get',
      path: '/v1/me',
      operationId: 'getMe',
      auth: 'key',
      summary: "The calling key: its account, sandbox and admin flags, and which way this server's /v1 counts offset.y",
      description: "`y_axis` is `down` (the default) or `up` (Shotstack's, with `serve --y-axis up`); Shotstack's own surface always counts up.",
      responses: {
        200: {
          description: 'the key',
          schema: v.object({ account_id: v.string(), key_id: v.string(), sandbox: v.boolean(), admin: v.boolean(), y_axis: v.picklist(['down', 'up']) }),
        },
      },
      handler: (_event, p) => ({ account_id: p.accountId, key_id: p.keyId, sandbox: p.sandbox, admin: p.admin, y_axis: d.yAxis }),
    },
    {
      method: 'get',
      path: '/v1/keys',
      // Key management: admin keys, and never sandbox ones (a sandbox key making a live key would leave the sandbox).
      auth: 'admin',
      live: 'list keys',
      summary: 'Every API key (admin keys only); clear keys are never stored, only their prefixes',
      responses: { 200: { description: 'keys', schema: v.object({ keys: v.array(KeySchema) }) } },
      handler: async () => ({ keys: (await d.keys.list()).map(toKey) }),
    },
    {
      method: 'post',
      path: '/v1/keys',
      auth: 'admin',
      live: 'create keys',
      summary: 'Create a key (admin keys only); the clear key is in this answer only',
      description:
        'Body `{ sandbox?, admin?, account_id? }`: without `account_id` a new account is made, and its callback signing secret is returned once too.',
      body: CreateKeySchema,
      responses: {
        201: { description: 'the new key', schema: v.object({ ...KeySchema.entries, key: v.string(), signing_secret: v.optional(v.string()) }) },
        400: err,
        404: err,
      },
      handler: async (event) => {
        const body = parseBody(CreateKeySchema, await readJson(event, d.bodyLimit))
        const { key, record, signingSecret } = await createKey(d.keys, { sandbox: body.sandbox, admin: body.admin, accountId: body.account_id })
        event.res.status = 201
        return { ...toKey(record), key, ...(signingSecret ? { signing_secret: signingSecret } : {}) }
      },
    },
    {
      method: 'delete',
      path: '/v1/keys/:id',
      operationId: 'revokeKey',
      auth: 'admin',
      live: 'revoke keys',
      summary: 'Revoke a key (admin keys only); it stops working at once',
      responses: { 200: { description: 'the revoked key', schema: KeySchema }, 404: err, 409: err },
      handler: async (event, p) => toKey(await revokeKey(d.keys, p, event.context.params?.id ?? '')),
    },
  ])
}
