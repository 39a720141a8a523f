import { isAbsolute, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { createRegistry, type Plugin } from '../../core/index.js'
import { builtinPlugins } from '../../plugins/index.js'

/**
 * Plugins beyond the built-in ones, from modules that each default-export a plugin or a list of them
 * (`ServiceConfig.pluginModules`, env `REELFORGE_PLUGINS`). Plugins are code, so a render process cannot be sent
 * them: the server and every render process import the same modules by path. A module that cannot be imported,
 * exports no plugin, or clashes with a name already taken stops the start with its path and the reason (the
 * renderer's registry would otherwise refuse it later, inside the service's wiring, naming neither).
 */
export async function loadPluginModules(modules: readonly string[] = []): Promise<Plugin[]> {
  const plugins: Plugin[] = []
  if (!modules.length) return plugins
  // The built-in plugins as the service registers them (its configured vendors and local AI engines too).
  const builtins = builtinPlugins()
  for (const m of modules) {
    const mod = await import(isAbsolute(m) ? pathToFileURL(m).href : m.startsWith('.') ? pathToFileURL(resolve(m)).href : m).catch((e: unknown) => {
      throw new Error(`plugin module ${m} could not be loaded: ${e instanceof Error ? e.message : String(e)}`, { cause: e })
    })
    if (!mod.default) throw new Error(`plugin module ${m} has no default export (a plugin or a list of plugins)`)
    const own = [mod.default as Plugin | Plugin[]].flat()
    if (!own.length) throw new Error(`plugin module ${m} exports an empty list: no plugin`)
    try {
      createRegistry([...builtins, ...plugins, ...own])
    } catch (e) {
      throw new Error(`plugin module ${m}: ${(e as Error).message}`, { cause: e })
    }
    plugins.push(...own)
  }
  return plugins
}
