import type { ImageGenerator, Plugin, ProviderPlugin } from '../../core/index.js'
import { ServedAssets } from '../assets/served.js'
import { TransferStore } from '../assets/transfer-store.js'
import { Transfers } from '../assets/transfers.js'
import { aiProvidersFromConfig, providersFromConfig } from '../../plugins/index.js'
import { httpSender } from '../webhooks/http-sender.js'
import { aiForRender } from '../ai/for-render.js'
import { type AiJobDeps, AiJobs } from '../ai/jobs.js'
import { AiJobStore } from '../ai/store.js'
import { GeneratedAssets } from '../create/assets.js'
import { publishToStorage } from '../ai/publish.js'
import { Idempotency } from '../accounts/idempotency.js'
import { KeyStore } from '../accounts/keys.js'
import { RateLimiter } from '../accounts/rate-limit.js'
import type { Billing } from '../billing/billing.js'
import { pricingFromConfig } from '../billing/pricing-config.js'
import { Wallet } from '../billing/wallet.js'
import { systemClock, type Clock } from '../lib/clock.js'
import { instancePerContainerCachingFactory, Lifecycle, type DependencyContainer } from './di.js'
import { filesDir, publicBaseUrl, type ServiceConfig } from '../config.js'
import type { Db } from '../db/db.js'
import { Destinations } from '../destinations/deliver.js'
import { IntegrationStore } from '../destinations/integrations.js'
import { JobEvents } from '../jobs/job-events.js'
import { ImageService } from '../images/images.js'
import { IsolatedRenderer } from '../isolation/isolated-renderer.js'
import { serviceRenderer } from '../isolation/service-renderer.js'
import { renderProcessLimits } from '../isolation/worker-renderer.js'
import { JobStore } from '../jobs/store.js'
import { JobRunner } from '../jobs/job-runner.js'
import type { BullQueue } from '../queue/bull-queue.js'
import { InProcessQueue } from '../queue/queue.js'
import { storageFor } from '../storage/storage-select.js'
import { LocalStorage, type Storage } from '../storage/storage.js'
import { TemplateStore } from '../templates/store.js'
import { SourceImporter } from '../sources/importer.js'
import { SourceRenditions } from '../sources/renditions.js'
import { SourceStore } from '../sources/store.js'
import { TOKENS } from './tokens.js'
import type { ServiceOverrides } from './overrides.js'
import { Previews } from '../previews/previews.js'
import { readiness } from '../health/readiness.js'
import { redisProbe } from '../queue/redis-check.js'
import { WebhookOutbox } from '../webhooks/outbox.js'
import { Webhooks } from '../webhooks/webhooks.js'

/** One instance per container (a factory registration cannot take a lifecycle; this caches instead). */
const once = <T>(make: (c: DependencyContainer) => T) => ({ useFactory: instancePerContainerCachingFactory<T>(make) })
const scoped = { lifecycle: Lifecycle.ContainerScoped }

/** The services whose constructors name their own tokens (`@inject`): one per container, built on first use. */
const CLASSES: [symbol, new (...args: never[]) => unknown][] = [
  [TOKENS.Events, JobEvents],
  [TOKENS.Wallet, Wallet],
  [TOKENS.Outbox, WebhookOutbox],
  [TOKENS.Webhooks, Webhooks],
  [TOKENS.Idempotency, Idempotency],
  [TOKENS.Keys, KeyStore],
  [TOKENS.Jobs, JobStore],
  [TOKENS.Templates, TemplateStore],
  [TOKENS.Integrations, IntegrationStore],
  [TOKENS.Destinations, Destinations],
  [TOKENS.ServedAssets, ServedAssets],
  [TOKENS.TransferStore, TransferStore],
  [TOKENS.Transfers, Transfers],
  [TOKENS.Sources, SourceStore],
  [TOKENS.SourceImporter, SourceImporter],
  [TOKENS.SourceRenditions, SourceRenditions],
  [TOKENS.JobRunner, JobRunner],
]

/**
 * Who builds what: every service of the application is registered here, under its token, and nothing else in the
 * service registers or builds one (compose.ts resolves them, starts and stops them). Classes whose constructors name their tokens (`@inject`) are
 * registered as classes; the few that take an options object (they are also built outside the service:
 * segments, tests) or that are chosen by the config get a factory that resolves their parts. Past the plain
 * values at the top, nothing is built here: the container builds each service on first resolve, once.
 */
export function register(
  c: DependencyContainer,
  config: ServiceConfig,
  db: Db,
  o: ServiceOverrides,
  plugins: readonly Plugin[] = [],
  bull?: typeof BullQueue,
): void {
  c.register(TOKENS.Config, { useValue: config })
  // SQLite file by default; PostgreSQL when config.databaseUrl is set. Every store takes it as `Db`.
  c.register(TOKENS.Db, { useValue: db })
  c.register(TOKENS.Storage, { useValue: o.storage ?? storageFor(config) })
  c.register(TOKENS.Clock, { useValue: o.clock ?? systemClock })
  // The defaults, or the `pricing` of the REELFORGE_CONFIG file (a bad one stops the start here, naming the field).
  c.register(TOKENS.Pricing, { useValue: o.pricing ?? pricingFromConfig() })
  c.register(TOKENS.Sender, { useValue: o.sender ?? httpSender({ network: config.network }) })
  // Image providers in the operator's plugin modules serve their models ahead of the configured vendors.
  const ownProviders = plugins.filter((p): p is ProviderPlugin => p.kind === 'provider')
  c.register(TOKENS.Providers, { useValue: [...ownProviders, ...(o.providers ?? providersFromConfig())] })
  c.register(
    TOKENS.AiProviders,
    once((c) => o.aiProviders ?? aiProvidersFromConfig(process.env, { publishImage: publishToStorage(c.resolve(TOKENS.Storage), config) })),
  )

  for (const [token, useClass] of CLASSES) c.register(token, { useClass }, scoped)
  if (o.billing) c.register(TOKENS.Billing, { useValue: o.billing })
  else c.register(TOKENS.Billing, { useToken: TOKENS.Wallet })
  c.register(
    TOKENS.Limiter,
    once((c) => new RateLimiter(config.rateLimits, c.resolve<Clock>(TOKENS.Clock))),
  )
  c.register(
    TOKENS.Images,
    once(
      (c) =>
        new ImageService({
          db: c.resolve(TOKENS.Db),
          config,
          storage: c.resolve(TOKENS.Storage),
          billing: c.resolve(TOKENS.Billing),
          webhooks: c.resolve(TOKENS.Webhooks),
          pricing: c.resolve(TOKENS.Pricing),
          limiter: c.resolve(TOKENS.Limiter),
          providers: c.resolve(TOKENS.Providers),
        }),
    ),
  )
  c.register(TOKENS.AiJobStore, { useClass: AiJobStore }, scoped)
  const aiDeps = (c: DependencyContainer): AiJobDeps => ({
    config,
    store: c.resolve(TOKENS.AiJobStore),
    storage: c.resolve(TOKENS.Storage),
    billing: c.resolve(TOKENS.Billing),
    webhooks: c.resolve(TOKENS.Webhooks),
    pricing: c.resolve(TOKENS.Pricing),
    limiter: c.resolve(TOKENS.Limiter),
    providers: c.resolve(TOKENS.AiProviders),
  })
  c.register(
    TOKENS.AiJobs,
    once((c) => new AiJobs(aiDeps(c))),
  )
  c.register(
    TOKENS.AiRunner,
    once((c) => aiForRender(aiDeps(c))),
  )
  c.register(
    TOKENS.GeneratedAssets,
    once((c) => new GeneratedAssets({ ...aiDeps(c), imageProviders: c.resolve(TOKENS.Providers) })),
  )
  registerRenderer(c, config, o, plugins)
  c.register(
    TOKENS.Previews,
    once(
      (c) =>
        new Previews({
          config,
          jobs: c.resolve(TOKENS.Jobs),
          queue: c.resolve(TOKENS.Queue),
          renderer: c.resolve(TOKENS.Renderer),
          billing: c.resolve(TOKENS.Billing),
          events: c.resolve(TOKENS.Events),
          integrations: c.resolve(TOKENS.Integrations),
          limiter: c.resolve(TOKENS.Limiter),
        }),
    ),
  )
  // `/readyz`: the database, Redis (when configured) and storage answer.
  c.register(
    TOKENS.Readiness,
    once((c) => {
      const [db, storage] = [c.resolve<Db>(TOKENS.Db), c.resolve<Storage>(TOKENS.Storage)]
      const redis = config.redisUrl ? redisProbe(config.redisUrl) : undefined
      const checks = { database: async () => void (await db.get('SELECT 1 AS ok')), ...(redis && { redis: redis.check }), storage: storage.check.bind(storage) }
      return readiness(checks, { close: async () => redis?.close() })
    }),
  )
  // Redis configured: renders go to BullMQ for `reelforge worker` processes; otherwise this process renders.
  const redisUrl = config.redisUrl
  if (redisUrl) {
    if (!bull) throw new Error('a service with redisUrl is registered with BullQueue (compose loads it)')
    c.register(
      TOKENS.Queue,
      once((c) => {
        const worker = c.resolve<JobRunner>(TOKENS.JobRunner)
        const settle = {
          config,
          jobs: c.resolve<JobStore>(TOKENS.Jobs),
          billing: c.resolve<Billing>(TOKENS.Billing),
          events: c.resolve<JobEvents>(TOKENS.Events),
          destinations: c.resolve<Destinations>(TOKENS.Destinations),
        }
        return new bull({ ...settle, redisUrl, maxAttempts: config.maxAttempts, segments: config.segments, count: (outcome) => worker.count(outcome) })
      }),
    )
  } else c.register(TOKENS.Queue, { useClass: InProcessQueue }, scoped)
}

/**
 * The renderer jobs use: the caller's, else the in-process one — behind a child process per render when
 * `isolateRenders` (a crash fails one job, not the service). It reads the service's own file URLs from
 * storage and makes AI assets through `Images`.
 */
function registerRenderer(c: DependencyContainer, config: ServiceConfig, o: ServiceOverrides, plugins: readonly Plugin[]): void {
  const baseUrl = () => publicBaseUrl(config)
  c.register(
    TOKENS.ImageGenerator,
    once<ImageGenerator>((c) => {
      const images = c.resolve<ImageService>(TOKENS.Images)
      return (request, ctx) => images.forRender(request, ctx)
    }),
  )
  c.register(
    TOKENS.LocalRenderer,
    once((c) =>
      serviceRenderer({
        cacheDir: config.cacheDir,
        network: config.network,
        files: config.files,
        baseUrl,
        storage: c.resolve(TOKENS.Storage),
        // The modules' own providers come in `plugins`: registered once.
        providers: c.resolve<ProviderPlugin[]>(TOKENS.Providers).filter((p) => !plugins.includes(p)),
        generateImage: c.resolve(TOKENS.ImageGenerator),
        runAi: c.resolve(TOKENS.AiRunner),
        plugins,
      }),
    ),
  )
  if (o.renderer) c.register(TOKENS.Renderer, { useValue: o.renderer })
  else if (!config.isolateRenders) c.register(TOKENS.Renderer, { useToken: TOKENS.LocalRenderer })
  else {
    c.register(
      TOKENS.Renderer,
      once((c) => {
        const storage = c.resolve<Storage>(TOKENS.Storage)
        // Each child opens storage itself: the local files directory, or the configured S3 bucket — not when the
        // caller supplied its own storage, which cannot cross into another process.
        const child = () => ({
          cacheDir: config.cacheDir,
          network: config.network,
          files: config.files,
          baseUrl: baseUrl(),
          filesDir: storage instanceof LocalStorage ? filesDir(config) : undefined,
          s3: o.storage ? undefined : config.s3,
          pluginModules: config.pluginModules,
        })
        const limits = renderProcessLimits(config)
        return new IsolatedRenderer(c.resolve(TOKENS.LocalRenderer), child, c.resolve(TOKENS.ImageGenerator), c.resolve(TOKENS.AiRunner), limits)
      }),
    )
  }
}
