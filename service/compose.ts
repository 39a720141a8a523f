import type { ServedAssets } from './assets/served.js'
import type { Transfers } from './assets/transfers.js'
import { setMaxListeners } from 'node:events'
import { RenderError, type AiRunner, type Compositor } from '../core/index.js'
import type { Idempotency } from './accounts/idempotency.js'
import type { KeyStore } from './accounts/keys.js'
import type { Billing } from './billing/billing.js'
import type { Wallet } from './billing/wallet.js'
import { dbTarget, type ServiceConfig } from './config.js'
import { openDatabase, type Db } from './db/db.js'
import type { IntegrationStore } from './destinations/integrations.js'
import { container as root } from './composition/di.js'
import type { JobEvents } from './jobs/job-events.js'
import type { ImageService } from './images/images.js'
import { IsolatedRenderer } from './isolation/isolated-renderer.js'
import { loadPluginModules } from './isolation/plugin-modules.js'
import type { JobStore } from './jobs/store.js'
import type { JobRunner } from './jobs/job-runner.js'
import type { JobQueue } from './queue/queue.js'
import { learnContentTypes, type Storage } from './storage/storage.js'
import type { TemplateStore } from './templates/store.js'
import type { RateLimiter } from './accounts/rate-limit.js'
import type { Previews } from './previews/previews.js'
import type { AiJobs } from './ai/jobs.js'
import type { AiJobStore } from './ai/store.js'
import type { GeneratedAssets } from './create/assets.js'
import type { SourceImporter } from './sources/importer.js'
import type { SourceStore } from './sources/store.js'
import { TOKENS } from './composition/tokens.js'
import type { Readiness } from './health/readiness.js'
import type { WebhookOutbox } from './webhooks/outbox.js'
import type { Webhooks } from './webhooks/webhooks.js'
import type { ServiceOverrides } from './composition/overrides.js'
import { register } from './composition/wiring.js'

export type { ServiceOverrides }

/** The application without any transport: every service, and what starts and stops them. */
export interface Application {
  config: ServiceConfig
  db: Db
  keys: KeyStore
  jobs: JobStore
  queue: JobQueue
  jobRunner: JobRunner
  renderer: Compositor
  billing: Billing
  events: JobEvents
  storage: Storage
  wallet: Wallet
  webhooks: Webhooks
  outbox: WebhookOutbox
  idempotency: Idempotency
  images: ImageService
  /** Saved templates (service/templates/): per account and environment, rendered through submitJob. */
  templates: TemplateStore
  served: ServedAssets
  /** Serve transfers (service/assets/transfers.ts): a file copied to an S3 bucket or this service's hosting. */
  transfers: Transfers
  /** Hosted sources (service/sources/): rows and the importer that fills them. */
  sources: SourceStore
  importer: SourceImporter
  /** AI jobs beside images (service/ai/): text, speech, transcription, video, upscale. */
  aiJobs: AiJobs
  aiStore: AiJobStore
  /** How renders (and storyboards) run AI tasks as jobs of an account (service/ai/for-render.ts). */
  aiRunner: AiRunner
  /** Shotstack's Create API: generated assets, made as AI jobs (service/create/). */
  generatedAssets: GeneratedAssets
  /** Per key and model (or feature: frame previews) requests per minute. */
  limiter: RateLimiter
  /** Account-level integrations (S3 credentials for `output.destinations`). */
  integrations: IntegrationStore
  /** `/readyz`: the database, Redis (when configured) and storage answer. */
  readiness: Readiness
  /** Preview sessions (service/previews/): edits kept ready in render processes for a visual editor to scrub. */
  previews: Previews
  /** Aborts when `stop` begins: work tied to a request (frame previews) ends at once instead of holding the stop. */
  stopping: AbortSignal
  /** Starts taking jobs, imports and sending webhooks (and resumes image batches and imports a previous process left). */
  start(): Promise<void>
  /** Stops taking work: jobs (waiting up to `graceMs` for running ones), image batches, webhook sends. */
  stop(graceMs?: number): Promise<void>
  /** Releases the render processes and closes the database; after `stop`, once nothing uses them. */
  close(): Promise<void>
}

/**
 * The composition root — the only place that resolves from tsyringe's container. A child container per
 * application (tests run many side by side) gets every service registered once (wiring.ts), and each is
 * resolved here once; everything past this point gets its collaborators handed in, never looks them up.
 */
export async function compose(config: ServiceConfig, overrides: ServiceOverrides = {}): Promise<Application> {
  const c = root.createChildContainer()
  // Opening the database is asynchronous (migrations), which tsyringe's factories cannot be: it comes in ready.
  // Plugin modules too: the renderer that validates edits must know their names.
  // BullMQ (with ioredis ~0.3 CPU-s of imports) only for a service that queues renders on Redis.
  const bull = config.redisUrl ? (await import('./queue/bull-queue.js')).BullQueue : undefined
  register(c, config, await openDatabase(dbTarget(config)), overrides, await loadPluginModules(config.pluginModules), bull)
  const get = <T>(token: symbol) => c.resolve<T>(token)
  const stopping = new AbortController()
  // Every frame preview in flight listens to it (AbortSignal.any): as many as the server serves at once.
  setMaxListeners(0, stopping.signal)
  const app = {
    stopping: stopping.signal,
    config,
    db: get<Db>(TOKENS.Db),
    keys: get<KeyStore>(TOKENS.Keys),
    jobs: get<JobStore>(TOKENS.Jobs),
    queue: get<JobQueue>(TOKENS.Queue),
    jobRunner: get<JobRunner>(TOKENS.JobRunner),
    renderer: get<Compositor>(TOKENS.Renderer),
    billing: get<Billing>(TOKENS.Billing),
    events: get<JobEvents>(TOKENS.Events),
    storage: get<Storage>(TOKENS.Storage),
    wallet: get<Wallet>(TOKENS.Wallet),
    // Building it subscribes it to job and wallet events.
    webhooks: get<Webhooks>(TOKENS.Webhooks),
    outbox: get<WebhookOutbox>(TOKENS.Outbox),
    idempotency: get<Idempotency>(TOKENS.Idempotency),
    images: get<ImageService>(TOKENS.Images),
    templates: get<TemplateStore>(TOKENS.Templates),
    served: get<ServedAssets>(TOKENS.ServedAssets),
    transfers: get<Transfers>(TOKENS.Transfers),
    sources: get<SourceStore>(TOKENS.Sources),
    importer: get<SourceImporter>(TOKENS.SourceImporter),
    aiJobs: get<AiJobs>(TOKENS.AiJobs),
    aiStore: get<AiJobStore>(TOKENS.AiJobStore),
    aiRunner: get<AiRunner>(TOKENS.AiRunner),
    generatedAssets: get<GeneratedAssets>(TOKENS.GeneratedAssets),
    limiter: get<RateLimiter>(TOKENS.Limiter),
    integrations: get<IntegrationStore>(TOKENS.Integrations),
  }
  learnContentTypes(app.renderer.registry.list('output'))
  const previews = get<Previews>(TOKENS.Previews)
  const ready = get<Readiness>(TOKENS.Readiness)
  // Only a renderer built here is this application's to close (a caller's own stays the caller's).
  const owned = overrides.renderer ? undefined : app.renderer
  return {
    ...app,
    readiness: ready,
    previews,
    start: async () => {
      app.queue.start()
      await app.outbox.start()
      await app.images.resume()
      await app.importer.start()
      await app.transfers.start()
      await app.aiJobs.start()
      await app.generatedAssets.start()
    },
    stop: async (graceMs) => {
      stopping.abort(new RenderError('E_CANCELLED', 'the server is stopping'))
      await previews.closeAll()
      await app.queue.stop(graceMs)
      await app.images.stop()
      await app.importer.stop()
      await app.transfers.stop()
      await app.aiJobs.stop()
      await app.generatedAssets.stop()
      await app.outbox.stop()
    },
    close: async () => {
      await ready.close()
      if (owned instanceof IsolatedRenderer) await owned.close()
      await app.db.close()
    },
  }
}
