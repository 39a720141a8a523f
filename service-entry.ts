// The service factory as the package exports it. It loads the service (h3, tsyringe, the SQL drivers; BullMQ and the
// AWS SDK only where its config uses them) on first call, so `import { createRenderer } from 'reelforge'` stays a
// renderer's import and nothing more.
import type { Service, ServiceApp } from './adapters/http/service-type.js'
import type { ServiceConfig } from './service/config.js'
import type { ServiceOverrides } from './service/composition/overrides.js'

/** A complete service config: defaults for everything you do not set (`dataDir`, `port`, limits, …). */
export { defaultConfig } from './service/config.js'

export type { Service, ServiceApp, ServiceConfig, ServiceOverrides }

/**
 * Builds the `/v1` service (HTTP app, database, queue, webhooks, wallet) from a config.
 * @example
 * import { createService, defaultConfig } from 'reelforge'
 * const service = await createService(defaultConfig({ dataDir: './data' }))
 * await service.start()
 */
export async function createService(config: ServiceConfig, overrides?: ServiceOverrides): Promise<Service> {
  const { createService: create } = await import('./adapters/http/create-service.js')
  return create(config, overrides)
}
