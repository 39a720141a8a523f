import { readFileSync } from 'node:fs'
import { compose, type ServiceOverrides } from '../../service/compose.js'
import type { ServiceConfig } from '../../service/config.js'
import { createApp } from './app.js'
import { InflightRequests } from './inflight.js'
import type { Service as PublicService } from './service-type.js'
import { logger } from '../../service/log.js'

const log = logger('serve')

export type { ServiceOverrides }

/** reelforge's version, from the package.json above this file (from source or from dist/). */
function packageVersion(): string {
  for (const up of ['../../package.json', '../../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(up, import.meta.url), 'utf8')) as { name?: string; version?: string }
      if (pkg.name === 'reelforge') return pkg.version ?? '0'
    } catch {
      // not there
    }
  }
  return '0'
}
const version = packageVersion()

/** The service with its app as what it is, an h3 app (the Node server adapts it); `Service` is the public view. */
export interface Service extends PublicService {
  app: ReturnType<typeof createApp>
}

/** The `/v1` service: the application (service/compose.ts) behind its h3 app, which counts requests in flight. */
export async function createService(config: ServiceConfig, overrides: ServiceOverrides = {}): Promise<Service> {
  const application = await compose(config, overrides)
  const { start, stop, close, ...deps } = application
  const inflight = new InflightRequests()
  const app = createApp({ ...deps, version, inflight })
  const { db, keys, jobs, queue, events, wallet, webhooks, outbox, images, sources, importer, aiJobs } = deps
  return {
    app,
    config,
    db,
    keys,
    jobs,
    queue,
    events,
    wallet,
    webhooks,
    outbox,
    images,
    sources,
    importer,
    aiJobs,
    start,
    async close(graceMs) {
      await stop(graceMs)
      // Handlers still running (their clients may be gone) finish their writes before the database closes.
      if (!(await inflight.drained(Math.min(graceMs ?? 30_000, 10_000)))) log.warn(`closing with ${inflight.active} request(s) still running`)
      await close()
    },
  }
}
