import { useEffect, useState } from 'preact/hooks'
import { api } from '../api.js'
import type { Catalog } from './form-model.js'

/** A font family the renderer can draw (`GET /v1/fonts`); an uploaded one needs its `src` in `timeline.fonts`. */
export interface FontFamily {
  family: string
  weights: number[]
  source: 'builtin' | 'upload'
  src?: string
}
export interface Plugins {
  assets: string[]
  transitions: string[]
  effects: string[]
  filters: string[]
  fits: string[]
}
export interface Catalogue {
  plugins?: Plugins
  fonts?: FontFamily[]
  /** The names one inspector list offers (empty until loaded). */
  names(kind: Catalog): string[]
  reload(): void
}

/**
 * The renderer's names for the inspector's lists: `GET /v1/plugins` (transitions, effects, filters and fits — a
 * custom plugin the server loaded appears here too) and `GET /v1/fonts` (built-in and uploaded families).
 */
export function useCatalogue(): Catalogue {
  const [plugins, setPlugins] = useState<Plugins>()
  const [fonts, setFonts] = useState<FontFamily[]>()
  const [tick, setTick] = useState(0)
  useEffect(() => {
    api<Plugins>('GET', '/v1/plugins').then(setPlugins, () => {})
    api<{ fonts: FontFamily[] }>('GET', '/v1/fonts').then(
      (r) => setFonts(r.fonts),
      () => {},
    )
  }, [tick])
  return {
    plugins,
    fonts,
    names: (kind) => (kind === 'fonts' ? (fonts ?? []).map((f) => f.family) : (plugins?.[kind] ?? [])),
    reload: () => setTick((n) => n + 1),
  }
}
