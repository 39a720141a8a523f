import type { AiProviderPlugin, Plugin, ProviderPlugin } from '../core/index.js'
import { aiProvidersFromConfig, providersFromConfig, sandboxProvider } from './providers/index.js'
import { builtinAssets } from './assets/index.js'
import { builtinFits } from './fits/index.js'
import { builtinLoaders, type FilePolicy, type HttpLoaderOptions } from './loaders/index.js'
import { builtinOutputs } from './outputs/index.js'
import { builtinTransitions } from './transitions/index.js'
import { builtinEffects } from './effects/index.js'
import { builtinFilters } from './filters/index.js'
import type { NetworkPolicy } from './lib/net/guard.js'

export interface BuiltinOptions {
  http?: HttpLoaderOptions
  /** Private networks that http(s) sources may reach (SSRF guard; default: public addresses only). */
  network?: NetworkPolicy
  /** Image providers; default: those configured by environment/config file, else the sandbox generator. */
  providers?: ProviderPlugin[]
  /** Local files sources may name (default: any; the service allows only `files.allow`, none by default). */
  files?: FilePolicy
  /**
   * AI task engines a render may use (voice-overs, prompted video, captions of a clip's sound); default: the
   * local, free ones (espeak-ng, PocketSphinx where installed, ffmpeg, the sandbox's stand-ins). A vendor here is
   * preferred over them, and called — and paid — by every render that needs it.
   */
  aiProviders?: AiProviderPlugin[]
}

/** Every built-in plugin, ready for `createCompositor({ plugins })`. */
export function builtinPlugins(opts: BuiltinOptions = {}): Plugin[] {
  const providers = opts.providers ?? providersFromConfig()
  // Models no configured provider serves are answered by the sandbox generator.
  const served = new Set(providers.flatMap((p) => p.models))
  const sandbox = sandboxProvider.models.every((m) => served.has(m))
    ? []
    : [{ ...sandboxProvider, models: sandboxProvider.models.filter((m) => !served.has(m)) }]
  return [
    ...builtinAssets,
    ...builtinFits,
    ...builtinTransitions,
    ...builtinEffects,
    ...builtinFilters,
    ...builtinOutputs,
    ...builtinLoaders({ network: opts.network, ...opts.http }, opts.files),
    ...providers,
    ...sandbox,
    ...(opts.aiProviders ?? aiProvidersFromConfig().filter((p) => p.local)),
  ] as Plugin[]
}

export { builtinFonts, DEFAULT_FONT } from './lib/fonts/builtin.js'
export { builtinAssets, builtinFits, builtinTransitions, builtinEffects, builtinFilters, builtinOutputs, builtinLoaders }
export { fileRefusal, isLocalSource, LOCAL_FILES_REFUSED, type FilePolicy } from './loaders/index.js'
export { defineGlslTransition } from './transitions/index.js'
export type { GlslTransitionOptions } from './transitions/index.js'
export { addressGuard, checkUrl, guardedAgent, AddressRefused, type NetworkPolicy } from './lib/net/guard.js'
export * from './providers/index.js'
export { storyboard, type ScriptWriter, type Storyboard, type StoryboardRequest } from './lib/story/storyboard.js'
