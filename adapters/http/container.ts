import 'reflect-metadata'
import { readFileSync } from 'node:fs'
import { container as root, Lifecycle } from 'tsyringe'
import { createRenderer } from '../index.js'
import type { Compositor } from '../../core/index.js'
import { freeBilling, type Billing } from '../service/billing.js'
import { dbPath, filesDir, type ServiceConfig } from '../service/config.js'
import { openDatabase, type Db } from '../service/db.js'
import { JobEvents } from '../service/events.js'
import { JobStore } from '../service/jobs.js'
import { KeyStore } from '../service/keys.js'
import { InProcessQueue, type JobQueue } from '../service/queue.js'
import { LocalStorage, type Storage } from '../service/storage.js'
import { TOKENS } from '../service/tokens.js'
import { RenderWorker } from '../service/worker.js'
import { createApp } from './app.js'

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
export interface Service {
  app: ReturnType<typeof createApp>
  config: ServiceConfig
  db: Db
  keys: KeyStore
  jobs: JobStore
  queue: JobQueue
  events: JobEvents
  /** Starts taking jobs. */
  start(): void
  /** Stops taking jobs (waiting up to `graceMs` for running ones) and closes the database. */
  close(graceMs?: number): Promise<void>
}

/**
 * The composition root — the only place that uses tsyringe. Every service is registered once (container
 * scoped) with explicit `@inject(TOKENS.X)` parameters (tsx emits no decorator metadata), then resolved
 * once here; handlers never resolve anything.
 */
export function createService(config: ServiceConfig, overrides: { renderer?: Compositor; billing?: Billing; storage?: Storage } = {}): Service {
  const c = root.createChildContainer()
  const scoped = { lifecycle: Lifecycle.ContainerScoped }
  c.register(TOKENS.Config, { useValue: config })
  c.register(TOKENS.Db, { useValue: openDatabase(dbPath(config)) })
  c.register(TOKENS.Renderer, { useValue: overrides.renderer ?? createRenderer({ cacheDir: config.cacheDir }) })
  c.register(TOKENS.Billing, { useValue: overrides.billing ?? freeBilling })
  c.register(TOKENS.Storage, { useValue: overrides.storage ?? new LocalStorage(filesDir(config)) })
  c.register(TOKENS.Events, { useClass: JobEvents }, scoped)
  c.register(TOKENS.Keys, { useClass: KeyStore }, scoped)
  c.register(TOKENS.Jobs, { useClass: JobStore }, scoped)
  c.register(TOKENS.Worker, { useClass: RenderWorker }, scoped)
  c.register(TOKENS.Queue, { useClass: InProcessQueue }, scoped)

  const deps = {
    config,
    db: c.resolve<Db>(TOKENS.Db),
    keys: c.resolve<KeyStore>(TOKENS.Keys),
    jobs: c.resolve<JobStore>(TOKENS.Jobs),
    queue: c.resolve<JobQueue>(TOKENS.Queue),
    worker: c.resolve<RenderWorker>(TOKENS.Worker),
    renderer: c.resolve<Compositor>(TOKENS.Renderer),
    billing: c.resolve<Billing>(TOKENS.Billing),
    events: c.resolve<JobEvents>(TOKENS.Events),
    storage: c.resolve<Storage>(TOKENS.Storage),
  }
  const app = createApp({ ...deps, version })
  return {
    app,
    config,
    db: deps.db,
    keys: deps.keys,
    jobs: deps.jobs,
    queue: deps.queue,
    events: deps.events,
    start: () => deps.queue.start(),
    async close(graceMs) {
      await deps.queue.stop(graceMs)
      deps.db.close()
    },
  }
}
