// createRenderer(): the core's compositor with every built-in plugin (and the caller's) registered.
import { checkPluginShape, createCompositor, type Compositor, type CompositorOptions, type Plugin } from '../core/index.js'
import { builtinFonts, builtinPlugins, DEFAULT_FONT, type BuiltinOptions } from './index.js'

export interface RendererOptions extends Omit<CompositorOptions, 'plugins'>, BuiltinOptions {
  /** Your own plugins, added to the built-in ones (a clashing name throws `E_PLUGIN_DUPLICATE`). */
  plugins?: readonly Plugin[]
}

/**
 * Creates a renderer with every built-in plugin plus yours.
 * @example
 * import { createRenderer } from 'reelforge'
 * const renderer = createRenderer()
 * const { path, duration } = await renderer.render(edit, { out: 'out/video.mp4' })
 */
export function createRenderer(options: RendererOptions = {}): Compositor {
  const own = options.plugins ?? []
  // Checked in the caller's order first, so a refusal names the caller's own `plugins[i]`.
  own.forEach((p, i) => checkPluginShape(p, i))
  return createCompositor({
    fallbackFont: DEFAULT_FONT,
    ...options,
    fonts: [...builtinFonts, ...(options.fonts ?? [])],
    // The caller's image providers first: a model they serve is theirs, ahead of the configured vendors and the
    // sandbox generator (the first provider serving a model draws it).
    plugins: [
      ...own.filter((p) => p.kind === 'provider'),
      ...builtinPlugins({ http: options.http, network: options.network, providers: options.providers, files: options.files, aiProviders: options.aiProviders }),
      ...own.filter((p) => p.kind !== 'provider'),
    ],
  })
}
