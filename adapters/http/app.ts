import { H3 } from 'h3'
import type { Application } from '../../service/compose.js'
import { publicBaseUrl } from '../../service/config.js'
import { mountDashboard } from '../dashboard/serve.js'
import { onError } from './errors.js'
import { openApiDocument } from './openapi.js'
import { register, type RouteSpec } from './route.js'
import { fileRoutes } from './routes/files.js'
import { renderRoutes } from './routes/renders.js'
import { previewRoutes } from './routes/previews.js'
import { walletRoutes } from './routes/wallet.js'
import { aiRoutes } from './routes/ai.js'
import { webhookRoutes } from './routes/webhooks.js'
import { integrationRoutes } from './routes/integrations.js'
import { opsRoutes } from './routes/ops.js'
import { keyRoutes } from './routes/keys.js'
import { aiJobRoutes } from './routes/ai-jobs.js'
import { storyboardRoutes } from './routes/ai-storyboard.js'
import { sourceRoutes } from './routes/sources.js'
import { uploadRoutes } from './routes/uploads.js'
import { templateRoutes } from './routes/templates.js'
import { catalogRoutes } from './routes/catalog.js'
import { idempotent } from './idempotent.js'
import { mountShotstack } from './shotstack/mount.js'
import type { InflightRequests } from './inflight.js'

/** Everything the routes use: the composed application's services (handlers close over these), plus HTTP extras. */
export interface AppDeps extends Omit<Application, 'start' | 'stop' | 'close'> {
  /** More route modules. */
  extraRoutes?: RouteSpec[]
  /** Counts requests in flight (the service waits for them before closing its database). */
  inflight?: InflightRequests
  version?: string
}

/**
 * The `/v1` HTTP API as an h3 app: every route from a table that also produces `/v1/openapi.json`, and one
 * error shape for everything (`{ error: { code, message, issues? } }`).
 * @example
 * const app = createApp(deps)
 * const res = await app.request('/v1/render/…', { headers: { authorization: `Bearer ${key}` } })
 */
export function createApp(deps: AppDeps): H3 {
  const app = new H3({ onError, silent: true })
  if (deps.inflight) app.use(deps.inflight.middleware)
  const bodyLimit = deps.config.limits.bodyBytes
  const routes: RouteSpec[] = [
    ...renderRoutes(deps),
    ...previewRoutes(deps),
    ...fileRoutes(deps.storage),
    ...webhookRoutes({ ...deps, bodyLimit }),
    ...integrationRoutes({ ...deps, bodyLimit }),
    ...walletRoutes({ ...deps, bodyLimit }),
    ...aiRoutes({ ...deps, bodyLimit }),
    ...keyRoutes({ ...deps, bodyLimit, yAxis: deps.config.yAxis }),
    ...templateRoutes(deps),
    ...sourceRoutes(deps),
    ...storyboardRoutes(deps),
    ...aiJobRoutes(deps),
    ...uploadRoutes(deps),
    ...catalogRoutes(deps),
    ...(deps.extraRoutes ?? []),
  ]
  let doc: unknown
  routes.push({
    method: 'get',
    path: '/v1/openapi.json',
    auth: 'none',
    summary: 'This document',
    responses: { 200: { description: 'OpenAPI 3.1' } },
    handler: () => (doc ??= openApiDocument(routes, { version: deps.version ?? '0', baseUrl: publicBaseUrl(deps.config) })),
  })
  routes.push(
    ...opsRoutes({ db: deps.db, readiness: deps.readiness, runner: deps.jobRunner, renderer: deps.renderer, isShuttingDown: () => deps.queue.stopping }),
  )
  register(app, routes, { keys: deps.keys, wrapPost: (handler) => idempotent(handler, { idempotency: deps.idempotency, bodyLimit }) })
  if (deps.config.shotstack) mountShotstack(app, deps)
  mountDashboard(app)
  return app
}
