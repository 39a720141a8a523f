import { pluginError, RenderError } from './errors.js'
import type { Plugin, PluginKind, PluginOf } from './plugin.js'
import { checkPluginShape, PLUGIN_KINDS } from './plugin-shape.js'

/** Plugins of one compositor instance, by kind and name. Never global (unlike pixi's `extensions`). */
export interface Registry {
  /** Exact lookup; throws `E_PLUGIN_NOT_FOUND` listing the registered names. */
  get<K extends PluginKind>(kind: K, name: string, path?: string): PluginOf<K>
  find<K extends PluginKind>(kind: K, name: string): PluginOf<K> | undefined
  list<K extends PluginKind>(kind: K): PluginOf<K>[]
  names(kind: PluginKind): string[]
}

/** Builds a registry; a second plugin with the same kind and name throws `E_PLUGIN_DUPLICATE` at once. */
export function createRegistry(plugins: readonly Plugin[]): Registry {
  const maps = new Map<PluginKind, Map<string, Plugin>>(PLUGIN_KINDS.map((k) => [k, new Map()]))
  for (const [i, plugin] of plugins.entries()) {
    checkPluginShape(plugin, i)
    const map = maps.get(plugin.kind)!
    // A schema valibot cannot run would fail every clip of the type with a bare TypeError: refused here instead.
    if (plugin.kind === 'asset' && typeof (plugin.schema as { '~run'?: unknown } | undefined)?.['~run'] !== 'function')
      throw pluginError('asset', plugin.name, 'schema', new Error('not a valibot schema (e.g. v.looseObject({ type: v.literal(…) }))'))
    if (map.has(plugin.name))
      throw new RenderError('E_PLUGIN_DUPLICATE', `duplicate ${plugin.kind} plugin "${plugin.name}"`, { plugin: `${plugin.kind}:${plugin.name}` })
    map.set(plugin.name, plugin)
  }
  const registry: Registry = {
    find: (kind, name) => maps.get(kind)!.get(name) as never,
    get(kind, name, path) {
      const found = registry.find(kind, name)
      if (found) return found
      const known = registry.names(kind)
      throw new RenderError('E_PLUGIN_NOT_FOUND', `${path ? `${path}: ` : ''}no ${kind} plugin "${name}"; known: ${known.join(', ') || '(none)'}`, {
        path,
        kind,
        name,
        known,
      })
    },
    list: (kind) => [...maps.get(kind)!.values()] as never,
    names: (kind) => [...maps.get(kind)!.keys()].sort(),
  }
  return registry
}
