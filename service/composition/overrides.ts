import type { AiProviderPlugin, Compositor, ProviderPlugin } from '../../core/index.js'
import type { WebhookSender } from '../webhooks/http-sender.js'
import type { Billing } from '../billing/billing.js'
import type { Pricing } from '../billing/pricing.js'
import type { Clock } from '../lib/clock.js'
import type { Storage } from '../storage/storage.js'

// Its own module, apart from the wiring: an app's compiler reads it through the package's public types, and the
// wiring's would bring the DI container's types along.

/** What a caller (tests, an embedding app) may put in place of the defaults. */
export interface ServiceOverrides {
  renderer?: Compositor
  storage?: Storage
  clock?: Clock
  pricing?: Pricing
  sender?: WebhookSender
  /** Replaces the wallet as what every paid job spends through — renders, images, AI jobs, Create assets (e.g. free). */
  billing?: Billing
  /** Image providers (default: from the environment / REELFORGE_CONFIG). */
  providers?: ProviderPlugin[]
  /** Providers of the other AI tasks (default: the local engines plus the vendors the environment configures). */
  aiProviders?: AiProviderPlugin[]
}
