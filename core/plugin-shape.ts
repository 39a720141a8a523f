import { pluginError, RenderError } from './errors.js'
import type { Plugin, PluginKind } from './plugin.js'

// What each kind of plugin must carry, checked when a renderer is made: a plugin written in plain JavaScript (or
// cast past its type) that lacks one would otherwise fail later with a bare TypeError — at the first edit using it,
// or inside the name checks of every edit (a plugin without a name broke the "closest known" list).

type Rule = (value: unknown) => string | undefined

const fn: Rule = (v) => (typeof v === 'function' ? undefined : 'must be a function')
const text: Rule = (v) => (typeof v === 'string' ? undefined : 'must be a string')
const names: Rule = (v) => (Array.isArray(v) && v.every((n) => typeof n === 'string' && n) ? undefined : 'must be an array of names, e.g. ["my-model"]')
const oneOf =
  (...allowed: string[]): Rule =>
  (v) =>
    allowed.includes(v as string) ? undefined : `must be one of ${allowed.join(', ')}`
const seconds: Rule = (v) => {
  const d = v as Record<string, unknown> | null
  const ok = !!d && typeof d === 'object' && Object.values(d).every((s) => typeof s === 'number' && s > 0 && Number.isFinite(s))
  return ok && typeof d[''] === 'number' ? undefined : 'must be an object with "" in seconds (and optional Slow, Fast), e.g. { "": 1, Slow: 2, Fast: 0.5 }'
}

/** Every kind of plugin, in the order docs list them. */
export const PLUGIN_KINDS: readonly PluginKind[] = ['asset', 'transition', 'effect', 'filter', 'fit', 'output', 'loader', 'provider', 'ai']

const NEEDS: Record<PluginKind, Record<string, Rule>> = {
  asset: { prepare: fn },
  transition: { durations: seconds, compile: fn },
  effect: { compile: fn },
  filter: { glsl: text },
  fit: { fit: fn },
  output: { mime: text, extension: text, takes: oneOf('video', 'still', 'audio'), open: fn },
  loader: { test: fn, load: fn },
  provider: { models: names, generate: fn },
  ai: { task: text, models: names, run: fn },
}

const shown = (v: unknown) => (typeof v === 'function' ? 'a function' : v === undefined ? 'undefined' : JSON.stringify(v)?.slice(0, 60))

/** Throws `E_PLUGIN_FAILED` naming the plugin (`plugins[i]` when it has no name) and the first field it lacks. */
export function checkPluginShape(plugin: unknown, index: number): asserts plugin is Plugin {
  if (!plugin || typeof plugin !== 'object')
    throw new RenderError('E_PLUGIN_FAILED', `plugins[${index}]: a plugin must be an object with a kind and a name, got ${shown(plugin)}`)
  const { kind, name } = plugin as { kind?: unknown; name?: unknown }
  if (!PLUGIN_KINDS.includes(kind as PluginKind))
    throw new RenderError('E_PLUGIN_FAILED', `unknown plugin kind ${shown(kind)} (plugin ${shown(name)}); kinds: ${PLUGIN_KINDS.join(', ')}`)
  if (typeof name !== 'string' || !name) throw pluginError(String(kind), '?', 'name', new Error(`must be a non-empty string, got ${shown(name)}`))
  for (const [field, rule] of Object.entries(NEEDS[kind as PluginKind])) {
    const value = (plugin as Record<string, unknown>)[field]
    const wrong = rule(value)
    if (wrong) throw pluginError(String(kind), name, field, new Error(`${wrong}, got ${shown(value)}`))
  }
}
