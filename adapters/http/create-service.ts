import { readFileSync } from 'node:fs'
import { type Application, compose, type ServiceOverrides } from '../../service/compose.js'
import type { ServiceConfig } from '../../service/config.js'
import { createApp } from './app.js'
import { InflightRequests } from './inflight.js'

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

/** A running service: the app plus what must be started and stopped. */
export interface Service
  extends Pick<
    Application,
    'config' | 'db' | 'keys' | 'jobs' | 'queue' | 'events' | 'wallet' | 'webhooks' | 'outbox' | 'images' | 'sources' | 'importer' | 'aiJobs'
  > {
  app: ReturnType<typeof createApp>
  /** Starts taking jobs and sending webhooks (and resumes image batches a previous process left). */
  start(): Promise<void>
  /** Stops taking jobs (waiting up to `graceMs` for running ones) and closes the database. */
  close(graceMs?: number): Promise<void>
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
      if (!(await inflight.drained(Math.min(graceMs ?? 30_000, 10_000)))) console.warn(`[serve] closing with ${inflight.active} request(s) still running`)
      await close()
    },
  }
}
