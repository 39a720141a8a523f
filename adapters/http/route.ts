import type { H3, H3Event } from 'h3'
import type { GenericSchema } from 'valibot'
import type { KeyStore, Principal } from '../../service/accounts/keys.js'
import { authenticate, authorize } from './auth.js'

export interface ResponseSpec {
  description: string
  /** JSON body schema (valibot); absent for non-JSON bodies. */
  schema?: GenericSchema
  /** Non-JSON media type (files). */
  content?: string
}

/** A handler behind a key: `register` has authenticated and authorized the caller before it runs. */
export type KeyHandler = (event: H3Event, principal: Principal) => unknown

/**
 * Who may call a route. Declared here, and only here: `register` enforces it and the OpenAPI document is
 * derived from it, so a route cannot be documented as secured yet served open. Required, so every new route
 * decides; public handlers get no principal (their type has none to take).
 */
export type RouteAccess =
  | { auth: 'none'; handler: (event: H3Event) => unknown }
  | {
      /** `key`: any valid `Authorization: Bearer <key>`; `admin`: an admin key (403 otherwise). */
      auth: 'key' | 'admin'
      /** Sandbox keys are refused (403) — what they cannot do, e.g. `'deposit credits'`. */
      live?: string
      handler: KeyHandler
    }

/**
 * One route: how it is served, who may call it and how it is documented, in one place, so
 * `/v1/openapi.json` covers every route by construction.
 */
export type RouteSpec = {
  method: 'get' | 'post' | 'put' | 'delete' | 'head'
  /** h3 path with `:params`. */
  path: string
  /** The OpenAPI `operationId`, where the one derived from method and path reads badly (openapi-operations.ts). */
  operationId?: string
  summary: string
  description?: string
  /** JSON request body schema (valibot). */
  body?: GenericSchema
  /** Query parameters: name → description. */
  query?: Record<string, string>
  /** Success and route-specific errors; 401/403 are added from `auth`/`live`. */
  responses: Record<number, ResponseSpec>
  /** Other paths serving the same handler, undocumented (legacy aliases). */
  aliases?: string[]
} & RouteAccess

export const defineRoutes = (routes: RouteSpec[]) => routes

/** The routes each app was given, for tests that walk the whole table (e.g. proving every route is guarded). */
const registered = new WeakMap<H3, readonly RouteSpec[]>()
export const registeredRoutes = (app: H3): readonly RouteSpec[] => registered.get(app) ?? []

export interface RegisterOptions {
  keys: KeyStore
  /** Decorates every keyed POST handler (idempotency keys); it runs after authentication, before authorization. */
  wrapPost?: (handler: KeyHandler) => KeyHandler
}

/** Registers route specs on an app, each behind the access its spec declares. */
export function register(app: H3, routes: readonly RouteSpec[], opts: RegisterOptions): void {
  for (const r of routes) {
    const handler = r.auth === 'none' ? r.handler : guarded(r, opts)
    for (const path of [r.path, ...(r.aliases ?? [])]) app[r.method](path, handler)
  }
  registered.set(app, [...registeredRoutes(app), ...routes])
}

/**
 * Authenticates before anything else reads the request (a bad body without a key is a 401), and authorizes
 * inside the idempotency wrapper, as the handlers did: a refused request is an answer it replays.
 */
function guarded(r: RouteSpec & { auth: 'key' | 'admin' }, opts: RegisterOptions) {
  const authorized: KeyHandler = (event, principal) => {
    authorize(principal, r)
    return r.handler(event, principal)
  }
  const handler = r.method === 'post' && opts.wrapPost ? opts.wrapPost(authorized) : authorized
  return async (event: H3Event) => handler(event, await authenticate(event, opts.keys))
}
