import type { AiRunner, Compositor, ImageGenerator, Plugin, ProviderPlugin } from '../../core/index.js'
import type { FilePolicy, NetworkPolicy } from '../../plugins/index.js'
import { createRenderer } from '../../plugins/create-renderer.js'
import { storageLoader } from '../storage/storage-loader.js'
import type { Storage } from '../storage/storage.js'

export interface ServiceRendererOptions {
  cacheDir: string
  network: NetworkPolicy
  /** Local files sources may name: the service never reads others (see `ServiceConfig.files`). */
  files: FilePolicy | undefined
  /** This service's public URL, read when a source is loaded (the port may be chosen after start). */
  baseUrl: () => string
  /** Where this service's own file URLs are read from. */
  storage?: Storage
  providers?: ProviderPlugin[]
  generateImage?: ImageGenerator
  runAi?: AiRunner
  /** Plugins added to the built-in ones (an `IsolatedRenderer`'s `pluginModules`). */
  plugins?: readonly Plugin[]
}

/**
 * The renderer every service process uses — the HTTP server, the render child, `reelforge worker` — built in
 * one place so none of them can forget the file policy or the storage loader.
 */
export function serviceRenderer(o: ServiceRendererOptions): Compositor {
  return createRenderer({
    cacheDir: o.cacheDir,
    network: o.network,
    files: o.files,
    providers: o.providers,
    plugins: [...(o.storage ? [storageLoader(o.baseUrl, o.storage, o.cacheDir)] : []), ...(o.plugins ?? [])],
    generateImage: o.generateImage,
    runAi: o.runAi,
  })
}
