import { toJsonSchema } from '@valibot/to-json-schema'
import type { GenericSchema } from 'valibot'
import { SHOTSTACK_ASSET_SCHEMAS } from '../../core/index.js'
import type { ResponseSpec, RouteSpec } from './route.js'
import { ErrorBodySchema } from './schemas.js'

const json = (schema: GenericSchema) => toJsonSchema(schema as never, { errorMode: 'ignore' }) as Record<string, unknown>

/**
 * The OpenAPI 3.1 document, generated from the route table and the valibot schemas it names — request
 * bodies, responses (the error body included) and, inside edits, every asset type by `type`.
 */
export function openApiDocument(routes: readonly RouteSpec[], info: { version: string; baseUrl: string }) {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const r of routes) {
    const path = r.path.replace(/:(\w+)/g, '{$1}')
    const params = [...r.path.matchAll(/:(\w+)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }))
    const query = Object.entries(r.query ?? {}).map(([name, description]) => ({ name, in: 'query', required: false, description, schema: { type: 'string' } }))
    paths[path] ??= {}
    paths[path]![r.method] = {
      summary: r.summary,
      ...(r.description ? { description: r.description } : {}),
      ...(r.auth === 'none' ? { security: [] } : {}),
      ...(params.length || query.length ? { parameters: [...params, ...query] } : {}),
      ...(r.body ? { requestBody: { required: true, content: { 'application/json': { schema: withAssets(json(r.body)) } } } } : {}),
      responses: Object.fromEntries(
        Object.entries({ ...r.responses, ...accessResponses(r) }).map(([status, spec]) => [
          status,
          {
            description: spec.description,
            ...(spec.schema
              ? { content: { 'application/json': { schema: json(spec.schema) } } }
              : spec.content
                ? { content: { [spec.content]: { schema: { type: 'string', format: 'binary' } } } }
                : {}),
          },
        ]),
      ),
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'reelforge',
      version: info.version,
      description:
        'Video composition from Shotstack-format timelines, AI images, signed webhooks and a credit wallet. Every route under /v1 needs `Authorization: Bearer <key>` unless marked otherwise.',
    },
    servers: [{ url: info.baseUrl }],
    security: [{ bearer: [] }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: {
        Asset: { oneOf: Object.values(SHOTSTACK_ASSET_SCHEMAS).map(json), discriminator: { propertyName: 'type' } },
      },
    },
    paths,
  }
}

/** The refusals `register` enforces from the same fields: 401 behind a key, 403 for admin or live-only. */
function accessResponses(r: RouteSpec): Record<number, ResponseSpec> {
  if (r.auth === 'none') return {}
  const error = { description: 'error', schema: ErrorBodySchema }
  return r.auth === 'admin' || r.live !== undefined ? { 401: error, 403: error } : { 401: error }
}

/** Points every clip `asset` of an edit schema at the `Asset` union. */
function withAssets(schema: Record<string, unknown>): Record<string, unknown> {
  const visit = (node: unknown): void => {
    if (!node || typeof node !== 'object') return
    const props = (node as { properties?: Record<string, unknown> }).properties
    if (props?.asset && props.start && props.length) props.asset = { $ref: '#/components/schemas/Asset' }
    for (const value of Object.values(node)) visit(value)
  }
  visit(schema)
  return schema
}
