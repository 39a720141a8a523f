import { RenderError, type Compositor, type Plugin } from '../../core/index.js'
import { filesDir, publicBaseUrl, type ServiceConfig } from '../config.js'
import type { Storage } from '../storage/storage.js'
import { IsolatedRenderer, type ProcessLimits } from './isolated-renderer.js'
import { serviceRenderer } from './service-renderer.js'

/** How every render process is bounded, the server's and each worker's: the memory ceiling of the config's limits. */
export const renderProcessLimits = (config: Pick<ServiceConfig, 'limits'>): ProcessLimits => ({
  memoryBytes: config.limits.renderMemoryMb * 2 ** 20,
  memorySetting: 'limits.renderMemoryMb, env REELFORGE_RENDER_MEMORY_MB',
})

/** Never called: a worker's render processes make AI assets themselves (`ChildConfig.ai`). */
const notAsked = (): never => {
  throw new RenderError('E_PROVIDER_FAILED', "a worker's render process makes its AI assets itself")
}

/**
 * The renderer of `reelforge worker`. As in the server, each render — a whole one, a piece of a split one —
 * runs in a render process of its own with the same bounds: the memory ceiling, a kill (the process and
 * everything it started) when an abort — a cancel arriving over Redis, the time budget — is not heeded within the
 * grace, and a watch that ends it with the worker. Validation and planning stay in the worker. A worker has no
 * database, so AI assets are made in the render process by the renderer's own providers, as they were when
 * workers rendered in their own process. `isolateRenders: false` renders in the worker itself.
 */
export function workerRenderer(config: ServiceConfig, storage: Storage, plugins: readonly Plugin[]): { renderer: Compositor; close(): void } {
  const baseUrl = () => publicBaseUrl(config)
  const local = serviceRenderer({ cacheDir: config.cacheDir, network: config.network, files: config.files, baseUrl, storage, plugins })
  if (!config.isolateRenders) return { renderer: local, close() {} }
  const child = () => ({
    cacheDir: config.cacheDir,
    network: config.network,
    files: config.files,
    baseUrl: baseUrl(),
    filesDir: config.s3 ? undefined : filesDir(config),
    s3: config.s3,
    pluginModules: config.pluginModules,
    ai: 'here' as const,
  })
  const isolated = new IsolatedRenderer(local, child, notAsked, notAsked, renderProcessLimits(config))
  return { renderer: isolated, close: () => isolated.close() }
}
