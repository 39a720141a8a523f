import type { Plugin } from '../core/index.js'
import { builtinAssets } from './assets/index.js'
import { builtinFits } from './fits/index.js'
import { builtinLoaders, type HttpLoaderOptions } from './loaders/index.js'
import { builtinOutputs } from './outputs/index.js'
import { builtinTransitions } from './transitions/index.js'

export interface BuiltinOptions {
  http?: HttpLoaderOptions
}

/** Every built-in plugin, ready for `createCompositor({ plugins })`. */
export function builtinPlugins(opts: BuiltinOptions = {}): Plugin[] {
  return [...builtinAssets, ...builtinFits, ...builtinTransitions, ...builtinOutputs, ...builtinLoaders(opts.http)] as Plugin[]
}

export { builtinFonts, DEFAULT_FONT } from './fonts/builtin.js'
export { builtinAssets, builtinFits, builtinTransitions, builtinOutputs, builtinLoaders }
export * from './webhooks/index.js'
