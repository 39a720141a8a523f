/** DI tokens (symbols): services name theirs in `@inject`, and the composition root (compose.ts) registers each. */
export const TOKENS = {
  Config: Symbol('Config'),
  Db: Symbol('Db'),
  Keys: Symbol('Keys'),
  Jobs: Symbol('Jobs'),
  Storage: Symbol('Storage'),
  Queue: Symbol('Queue'),
  Renderer: Symbol('Renderer'),
  Billing: Symbol('Billing'),
  JobRunner: Symbol('JobRunner'),
  Events: Symbol('Events'),
  Clock: Symbol('Clock'),
  Pricing: Symbol('Pricing'),
  Wallet: Symbol('Wallet'),
  Webhooks: Symbol('Webhooks'),
  Outbox: Symbol('Outbox'),
  Sender: Symbol('Sender'),
  Idempotency: Symbol('Idempotency'),
  Images: Symbol('Images'),
  /** Saved templates (`TemplateStore`). */
  Templates: Symbol('Templates'),
  /** Hosted sources (`SourceStore`) and their importer (`SourceImporter`). */
  Sources: Symbol('Sources'),
  SourceImporter: Symbol('SourceImporter'),
  /** A source's renditions: their rows and the ffmpeg runs that make them (`SourceRenditions`). */
  SourceRenditions: Symbol('SourceRenditions'),
  /** Account-level integrations (`IntegrationStore`: S3 credentials) and the copies to `output.destinations` (`Destinations`). */
  Integrations: Symbol('Integrations'),
  Destinations: Symbol('Destinations'),
  /** AI jobs (`AiJobStore`, `AiJobs`) and the providers of their tasks (`AiProviderPlugin[]`). */
  AiJobStore: Symbol('AiJobStore'),
  AiJobs: Symbol('AiJobs'),
  AiProviders: Symbol('AiProviders'),
  /** Finished renders' files as hosted assets (Shotstack's Serve API). */
  ServedAssets: Symbol('ServedAssets'),
  /** Serve transfers: their assets' rows (`TransferStore`) and the copies (`Transfers`). */
  TransferStore: Symbol('TransferStore'),
  Transfers: Symbol('Transfers'),
  /** Image vendor providers (`ProviderPlugin[]`). */
  Providers: Symbol('Providers'),
  /** The per-key, per-model image rate limiter. */
  Limiter: Symbol('Limiter'),
  /** The in-process renderer, before any isolation (`Renderer` is what jobs use). */
  LocalRenderer: Symbol('LocalRenderer'),
  /** How renders make AI images (through `Images`, so they are held, charged and stored). */
  ImageGenerator: Symbol('ImageGenerator'),
  /** How renders run other AI tasks (voice-overs, prompted video): as AI jobs of the render's account. */
  AiRunner: Symbol('AiRunner'),
  /** Shotstack's Create API: generated assets (`GeneratedAssets`, service/create/). */
  GeneratedAssets: Symbol('GeneratedAssets'),
  /** Preview sessions (`Previews`, service/previews/). */
  Previews: Symbol('Previews'),
  /** `/readyz`'s checks of the database, Redis and storage (`Readiness`). */
  Readiness: Symbol('Readiness'),
} as const
