import { isAbsolute, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Plugin } from '../../core/index.js'

/**
 * Plugins beyond the built-in ones, from modules that each default-export a plugin or a list of them
 * (`ServiceConfig.pluginModules`, env `REELFORGE_PLUGINS`). Plugins are code, so a render process cannot be sent
 * them: the server and every render process import the same modules by path.
 */
export async function loadPluginModules(modules: readonly string[] = []): Promise<Plugin[]> {
  const loaded = await Promise.all(modules.map((m) => import(isAbsolute(m) ? pathToFileURL(m).href : m.startsWith('.') ? pathToFileURL(resolve(m)).href : m)))
  return loaded.flatMap((mod: { default?: Plugin | Plugin[] }, i) => {
    if (!mod.default) throw new Error(`plugin module ${modules[i]} has no default export (a plugin or a list of plugins)`)
    return [mod.default].flat()
  })
}
