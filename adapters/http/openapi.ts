import type { GenericSchema } from 'valibot'
import { EXAMPLES, type OperationExamples } from './openapi-examples.js'
import { operationIds } from './openapi-operations.js'
import { componentRef, componentSchemas, nameOf } from './openapi-schemas.js'
import type { ResponseSpec, RouteSpec } from './route.js'
// Imported for its `named` calls too: the edit, its parts and the shared bodies get their component names.
import { ErrorBodySchema } from './schemas.js'

type Examples = OperationExamples['request']

/**
 * The OpenAPI 3.1 document, generated from the route table and the valibot schemas it names: every
 * operation has an `operationId` (./openapi-operations.ts), every JSON body is a `$ref` to a component
 * (./openapi-schemas.ts; bodies without a name of their own are named after their operation), and the main
 * operations carry examples (./openapi-examples.ts).
 */
export function openApiDocument(routes: readonly RouteSpec[], info: { version: string; baseUrl: string }) {
  const ids = operationIds(routes)
  const local = new Map<GenericSchema, string>()
  // A body's component: its own name, else `<Operation>Request` / `<Operation>Response`.
  const ref = (schema: GenericSchema, fallback: string, status = '') => {
    if (!nameOf(schema) && !local.has(schema)) {
      const taken = new Set(local.values())
      local.set(schema, taken.has(fallback) ? fallback.replace(/(Request|Response)$/, `${status}$1`) : fallback)
    }
    return { $ref: componentRef(nameOf(schema) ?? local.get(schema)!) }
  }
  const json = (schema: unknown, examples?: Examples) => ({ content: { 'application/json': { schema, ...(examples ? { examples } : {}) } } })
  const paths: Record<string, Record<string, unknown>> = {}
  for (const r of routes) {
    const id = ids.get(r)!
    const Id = id.charAt(0).toUpperCase() + id.slice(1)
    const examples = EXAMPLES[id]
    const params = [...r.path.matchAll(/:(\w+)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }))
    const query = Object.entries(r.query ?? {}).map(([name, description]) => ({ name, in: 'query', required: false, description, schema: { type: 'string' } }))
    const responses = Object.entries({ ...r.responses, ...accessResponses(r) }).map(([status, spec]) => {
      const body = spec.schema
        ? json(ref(spec.schema, `${Id}Response`, status), examples?.responses?.[Number(status)])
        : spec.content
          ? // A text stream (Server-Sent Events) is a string; files and images are bytes.
            { content: { [spec.content]: { schema: spec.content.startsWith('text/') ? { type: 'string' } : { type: 'string', format: 'binary' } } } }
          : {}
      return [status, { description: spec.description, ...body }]
    })
    const path = r.path.replace(/:(\w+)/g, '{$1}')
    paths[path] ??= {}
    paths[path]![r.method] = {
      operationId: id,
      summary: r.summary,
      ...(r.description ? { description: r.description } : {}),
      ...(r.auth === 'none' ? { security: [] } : {}),
      ...(params.length || query.length ? { parameters: [...params, ...query] } : {}),
      ...(r.body ? { requestBody: { required: true, ...json(ref(r.body, `${Id}Request`), examples?.request) } } : {}),
      responses: Object.fromEntries(responses),
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'reelforge',
      version: info.version,
      description:
        'Video composition from Shotstack-format timelines, AI images, signed webhooks and a credit wallet. Every route under /v1 needs `Authorization: Bearer <key>` unless marked otherwise.',
      // package.json's license.
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: info.baseUrl }],
    security: [{ bearer: [] }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: componentSchemas(local, paths),
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
