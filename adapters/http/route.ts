import type { H3, H3Event } from 'h3'
import type { GenericSchema } from 'valibot'

export interface ResponseSpec {
  description: string
  /** JSON body schema (valibot); absent for non-JSON bodies. */
  schema?: GenericSchema
  /** Non-JSON media type (files). */
  content?: string
}

/**
 * One route: how it is served and how it is documented, in one place, so `/v1/openapi.json` covers every
 * route by construction.
 */
export interface RouteSpec {
  method: 'get' | 'post' | 'put' | 'delete' | 'head'
  /** h3 path with `:params`. */
  path: string
  summary: string
  description?: string
  /** Needs `Authorization: Bearer <key>` (default true). */
  auth?: boolean
  /** Admin key required. */
  admin?: boolean
  /** JSON request body schema (valibot). */
  body?: GenericSchema
  /** Query parameters: name → description. */
  query?: Record<string, string>
  responses: Record<number, ResponseSpec>
  /** Other paths serving the same handler, undocumented (legacy aliases). */
  aliases?: string[]
  handler: (event: H3Event) => unknown
}

export const defineRoutes = (routes: RouteSpec[]) => routes

/** Registers route specs on an app; `wrapPost` decorates every POST handler (idempotency keys). */
export function register(app: H3, routes: readonly RouteSpec[], wrapPost?: (handler: RouteSpec['handler']) => RouteSpec['handler']): void {
  for (const r of routes) {
    const handler = r.method === 'post' && wrapPost ? wrapPost(r.handler) : r.handler
    for (const path of [r.path, ...(r.aliases ?? [])]) app[r.method](path, handler)
  }
}
