import type { H3, H3Event } from 'h3'
import type { Principal } from '../../../service/accounts/keys.js'
import type { Application } from '../../../service/compose.js'
import { type ShotstackEnv, shotstackCaller } from './auth.js'
import { createRoutes } from './create-routes.js'
import { editRoutes } from './edit-routes.js'
import { failure, ingestFailure, toFailure } from './envelope.js'
import { ingestRoutes } from './ingest-routes.js'
import { serveRoutes } from './serve-routes.js'
import { malformedId } from './strict.js'

/** What Shotstack's surface uses of the application. */
export type ShotstackDeps = Omit<Application, 'start' | 'stop' | 'close'>

/** One of Shotstack's operations, under `/{api}/{env}{path}` for both environments. */
export interface ShotstackRoute {
  method: 'get' | 'post' | 'put' | 'delete'
  api: 'edit' | 'serve' | 'ingest' | 'create'
  path: string
  handler: (event: H3Event, caller: Principal, env: ShotstackEnv) => Promise<Response>
}

/**
 * Adds Shotstack's wire protocol (Edit, Serve, Ingest and Create APIs, `x-api-key`) beside /v1, for `serve --shotstack`.
 * The Edit API also answers under the legacy `/stage` base older clients use (`/v1/…` stays reelforge's own).
 * Every answer, refusals included, is in Shotstack's shape; nothing here reaches /v1's error handler.
 */
export function mountShotstack(app: H3, d: ShotstackDeps): void {
  const routes = [...editRoutes(d), ...serveRoutes(d), ...ingestRoutes(d), ...createRoutes(d)]
  for (const env of ['v1', 'stage'] as const)
    for (const r of routes) {
      const paths = [`/${r.api}/${env}${r.path}`, ...(r.api === 'edit' && env === 'stage' ? [`/stage${r.path}`] : [])]
      for (const path of paths) app[r.method](path, guarded(r, env, d))
    }
  // Any other path or method under this surface is Shotstack's 404 (its shape, not /v1's `{ error: { code } }`);
  // the router tries these wildcards only after every route above.
  for (const base of ['/edit/v1', '/edit/stage', '/stage', '/serve/v1', '/serve/stage', '/ingest/v1', '/ingest/stage', '/create/v1', '/create/stage'])
    app.all(`${base}/**`, (event) => {
      const shape = errorsShaped(base.split('/')[1]!) ? ingestFailure : failure
      return shape(404, `no route ${event.req.method} ${new URL(event.req.url).pathname}`)
    })
}

/** The Ingest and Create APIs answer errors as `{ errors: [...] }`; the Edit and Serve APIs in their envelope. */
const errorsShaped = (api: string) => api === 'ingest' || api === 'create'

function guarded(r: ShotstackRoute, env: ShotstackEnv, d: ShotstackDeps) {
  const shape = errorsShaped(r.api) ? ingestFailure : failure
  return async (event: H3Event): Promise<Response> => {
    try {
      const caller = await shotstackCaller(event, d.keys, env, shape)
      if (caller instanceof Response) return caller
      const badId = malformedId(r, event)
      if (badId) return shape(400, badId)
      return await r.handler(event, caller, env)
    } catch (e) {
      return toFailure(e, `${r.method.toUpperCase()} ${new URL(event.req.url).pathname}`, shape)
    }
  }
}
