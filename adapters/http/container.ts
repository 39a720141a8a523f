import 'reflect-metadata'
import { readFileSync } from 'node:fs'
import { container as root, Lifecycle } from 'tsyringe'
import type { Compositor, ImageGenerator } from '../../core/index.js'
import { IsolatedRenderer } from '../../service/isolation/isolated-renderer.js'
import type { Billing } from '../../service/billing/billing.js'
import { systemClock, type Clock } from '../../service/clock.js'
import { Idempotency } from '../../service/accounts/idempotency.js'
import { WebhookOutbox } from '../../service/webhooks/outbox.js'
import { DEFAULT_PRICING, type Pricing } from '../../service/billing/pricing.js'
import { Wallet } from '../../service/billing/wallet.js'
import { Webhooks } from '../../service/webhooks/events.js'
import { httpSender, providersFromConfig, type WebhookSender } from '../../plugins/index.js'
import type { ProviderPlugin } from '../../core/index.js'
import { ImageService } from '../../service/images/images.js'
import { RateLimiter } from '../../service/accounts/rate-limit.js'
import { serviceRenderer } from '../../service/isolation/service-renderer.js'
import { dbTarget, filesDir, publicBaseUrl, type ServiceConfig } from '../../service/config.js'
import { openDatabase, type Db } from '../../service/db/db.js'
import { JobEvents } from '../../service/events.js'
import { JobStore } from '../../service/jobs/store.js'
import { KeyStore } from '../../service/accounts/keys.js'
import { InProcessQueue, type JobQueue } from '../../service/queue/queue.js'
import { BullQueue } from '../../service/queue/bull-queue.js'
import { LocalStorage, type Storage } from '../../service/storage/storage.js'
import { storageFor } from '../../service/storage/storage-select.js'
import { TOKENS } from '../../service/tokens.js'
import { RenderWorker } from '../../service/jobs/worker.js'
import { createApp } from './app.js'
import { InflightRequests } from './inflight.js'

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
  wallet: Wallet
  webhooks: Webhooks
  outbox: WebhookOutbox
  images: ImageService
  /** Starts taking jobs and sending webhooks (and resumes image batches a previous process left). */
  start(): Promise<void>
  /** Stops taking jobs (waiting up to `graceMs` for running ones) and closes the database. */
  close(graceMs?: number): Promise<void>
}

/**
 * The composition root — the only place that uses tsyringe. Every service is registered once (container
 * scoped) with explicit `@inject(TOKENS.X)` parameters (tsx emits no decorator metadata), then resolved
 * once here; handlers never resolve anything.
 */
export interface ServiceOverrides {
  renderer?: Compositor
  storage?: Storage
  clock?: Clock
  pricing?: Pricing
  sender?: WebhookSender
  /** Replaces the wallet as the render path's billing (e.g. free). */
  billing?: Billing
  /** Image providers (default: from the environment / REELFORGE_CONFIG). */
  providers?: ProviderPlugin[]
}

export async function createService(config: ServiceConfig, overrides: ServiceOverrides = {}): Promise<Service> {
  const c = root.createChildContainer()
  const scoped = { lifecycle: Lifecycle.ContainerScoped }
  c.register(TOKENS.Config, { useValue: config })
  // SQLite file by default; PostgreSQL when config.databaseUrl is set. Every store takes it as `Db`.
  c.register(TOKENS.Db, { useValue: await openDatabase(dbTarget(config)) })
  c.register(TOKENS.Storage, { useValue: overrides.storage ?? storageFor(config) })
  c.register(TOKENS.Clock, { useValue: overrides.clock ?? systemClock })
  c.register(TOKENS.Pricing, { useValue: overrides.pricing ?? DEFAULT_PRICING })
  c.register(TOKENS.Sender, { useValue: overrides.sender ?? httpSender({ network: config.network }) })
  c.register(TOKENS.Wallet, { useClass: Wallet }, scoped)
  if (overrides.billing) c.register(TOKENS.Billing, { useValue: overrides.billing })
  else c.register(TOKENS.Billing, { useToken: TOKENS.Wallet })
  c.register(TOKENS.Outbox, { useClass: WebhookOutbox }, scoped)
  c.register(TOKENS.Webhooks, { useClass: Webhooks }, scoped)
  c.register(TOKENS.Idempotency, { useClass: Idempotency }, scoped)
  const storage = c.resolve<Storage>(TOKENS.Storage)
  const providers = overrides.providers ?? providersFromConfig()
  const images = new ImageService({
    db: c.resolve<Db>(TOKENS.Db),
    config,
    storage,
    wallet: c.resolve<Wallet>(TOKENS.Wallet),
    webhooks: c.resolve<Webhooks>(TOKENS.Webhooks),
    pricing: c.resolve<Pricing>(TOKENS.Pricing),
    limiter: new RateLimiter(config.rateLimits, c.resolve<Clock>(TOKENS.Clock)),
    providers,
  })
  c.register(TOKENS.Images, { useValue: images })
  // The renderer reads the service's own file URLs from storage and makes AI assets through `images`.
  const baseUrl = () => publicBaseUrl(config)
  const generateImage: ImageGenerator = (request, ctx) => images.forRender(request, ctx)
  const local = serviceRenderer({ cacheDir: config.cacheDir, network: config.network, files: config.files, baseUrl, storage, providers, generateImage })
  const isolated = !overrides.renderer && config.isolateRenders ? new IsolatedRenderer(local, () => ({ cacheDir: config.cacheDir, network: config.network, files: config.files, baseUrl: baseUrl(), filesDir: storage instanceof LocalStorage ? filesDir(config) : undefined, s3: overrides.storage ? undefined : config.s3 }), generateImage) : undefined
  c.register(TOKENS.Renderer, { useValue: overrides.renderer ?? isolated ?? local })
  c.register(TOKENS.Events, { useClass: JobEvents }, scoped)
  c.register(TOKENS.Keys, { useClass: KeyStore }, scoped)
  c.register(TOKENS.Jobs, { useClass: JobStore }, scoped)
  c.register(TOKENS.Worker, { useClass: RenderWorker }, scoped)
  if (config.redisUrl) {
    const worker = c.resolve<RenderWorker>(TOKENS.Worker)
    const settle = { config, jobs: c.resolve<JobStore>(TOKENS.Jobs), billing: c.resolve<Billing>(TOKENS.Billing), events: c.resolve<JobEvents>(TOKENS.Events) }
    c.register(TOKENS.Queue, { useValue: new BullQueue({ ...settle, redisUrl: config.redisUrl, maxAttempts: config.maxAttempts, segments: config.segments, count: (o) => worker.count(o) }) })
  } else c.register(TOKENS.Queue, { useClass: InProcessQueue }, scoped)

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
    wallet: c.resolve<Wallet>(TOKENS.Wallet),
    webhooks: c.resolve<Webhooks>(TOKENS.Webhooks),
    outbox: c.resolve<WebhookOutbox>(TOKENS.Outbox),
    idempotency: c.resolve<Idempotency>(TOKENS.Idempotency),
    images,
  }
  deps.webhooks.connect(deps.events, deps.wallet)
  const inflight = new InflightRequests()
  const app = createApp({ ...deps, version, inflight })
  return {
    app,
    config,
    db: deps.db,
    keys: deps.keys,
    jobs: deps.jobs,
    queue: deps.queue,
    events: deps.events,
    wallet: deps.wallet,
    webhooks: deps.webhooks,
    outbox: deps.outbox,
    images,
    start: async () => {
      deps.queue.start()
      await deps.outbox.start()
      await images.resume()
    },
    async close(graceMs) {
      await deps.queue.stop(graceMs)
      await images.stop()
      await deps.outbox.stop()
      // Handlers still running (their clients may be gone) finish their writes before the database closes.
      if (!(await inflight.drained(Math.min(graceMs ?? 30_000, 10_000)))) console.warn(`[serve] closing with ${inflight.active} request(s) still running`)
      isolated?.close()
      await deps.db.close()
    },
  }
}
