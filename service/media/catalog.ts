import { effectNames, type Registry, SHOTSTACK_EFFECTS, SHOTSTACK_FILTERS, SHOTSTACK_TRANSITIONS, transitionNames } from '../../core/index.js'
import { builtinFonts } from '../../plugins/index.js'
import type { Principal } from '../accounts/keys.js'
import type { SourceStore } from '../sources/store.js'

/** The names an edit may use for each pluggable field, as this server's renderer knows them. */
export interface PluginCatalog {
  assets: string[]
  transitions: string[]
  effects: string[]
  filters: string[]
  fits: string[]
  /** `output.format`s: Shotstack's and an output plugin's (`avif`). */
  outputs: string[]
}

/**
 * What an editor may offer: every name the validator accepts (Shotstack's list and every registered plugin's,
 * custom plugins from `REELFORGE_PLUGINS` included) that the renderer can also draw — a Shotstack name without
 * a plugin behind it would validate and then fail at render time, so it is left out. `none` is no plugin and
 * is not listed.
 */
export function pluginCatalog(registry: Registry): PluginCatalog {
  // `fadeSlow` is drawn by `fade` at another speed, as the plan resolves it (core/plan/layers.ts).
  const drawable = (kind: 'transition' | 'effect', name: string) =>
    !!(registry.find(kind, name) ?? registry.find(kind, name.replace(/(VeryFast|Slow|Fast)$/, '')))
  // A transition's or effect's own speeds (`wipeDownSlow`, `driftFast`) are names of their own, as the validator takes them.
  const registered = (kind: 'transition' | 'effect' | 'filter') =>
    kind === 'transition' ? registry.list(kind).flatMap(transitionNames) : kind === 'effect' ? registry.list(kind).flatMap(effectNames) : registry.names(kind)
  const names = (shotstack: readonly string[], kind: 'transition' | 'effect' | 'filter') =>
    [...new Set([...shotstack, ...registered(kind)])].filter((n) => n !== 'none' && (kind === 'filter' ? !!registry.find(kind, n) : drawable(kind, n)))
  return {
    assets: registry.names('asset'),
    transitions: names(SHOTSTACK_TRANSITIONS, 'transition'),
    effects: names(SHOTSTACK_EFFECTS, 'effect'),
    filters: names(SHOTSTACK_FILTERS, 'filter'),
    fits: registry.names('fit'),
    outputs: registry.names('output'),
  }
}

/** A font family an edit may name in `font.family`; an uploaded one needs its `src` in `timeline.fonts`. */
export interface FontFamily {
  family: string
  weights: number[]
  source: 'builtin' | 'upload'
  src?: string
}

/** At most this many uploaded fonts are listed (an account with more names the rest by hand). */
const UPLOADS_LISTED = 200

/**
 * The built-in families (the renderer's own, with their weights) and the account's uploaded font files. An
 * upload is named by its file name without the extension, a spelling the renderer accepts beside the family
 * embedded in the file (core/plan/fonts.ts), so it works as soon as its `src` is in `timeline.fonts`.
 */
export async function fontCatalog(sources: Pick<SourceStore, 'list'>, principal: Principal): Promise<FontFamily[]> {
  const builtin = new Map<string, Set<number>>()
  for (const f of builtinFonts) builtin.set(f.family, (builtin.get(f.family) ?? new Set()).add(f.weight))
  const uploads = await sources.list(principal, { type: 'font', status: 'ready', limit: UPLOADS_LISTED })
  return [
    ...[...builtin].map(([family, weights]) => ({ family, weights: [...weights].sort((a, b) => a - b), source: 'builtin' as const })),
    ...uploads.flatMap((s) => {
      const src = s.url
      const stem = src ? decodeURIComponent(new URL(src, 'file:///').pathname.split('/').pop() ?? '').replace(/\.[^.]*$/, '') : ''
      return src && stem ? [{ family: stem, weights: [], source: 'upload' as const, src }] : []
    }),
  ]
}
