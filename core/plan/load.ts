import { RenderError } from '../errors.js'
import { callHook } from '../plugin-driver.js'
import type { Registry } from '../registry.js'

export interface LoadOptions {
  cacheDir: string
  /** Relative paths resolve against this (the edit file's folder for the CLI). */
  baseDir: string
  tmpDir?: string
  maxBytes: number
  timeoutMs: number
}

/**
 * Returns `load(src, path)`: the local file for a source through the first loader plugin whose `test`
 * accepts it (highest priority first), each source fetched once per plan. Failures name the clip path and URL.
 */
export function createLoad(registry: Registry, opts: LoadOptions, signal: AbortSignal) {
  const loaders = registry.list('loader').sort((a, b) => (b.priority ?? 0) - (a.priority ?? 0))
  const seen = new Map<string, Promise<string>>()
  // Shared by every clip naming `src`, so the hooks' errors name no clip: the catch below adds each caller's path.
  const fetchSource = async (src: string): Promise<string> => {
    const loader = loaders.find((l) => callHook(l, 'test', undefined, () => l.test(src)))
    if (!loader) throw new RenderError('E_ASSET_UNREADABLE', `no loader accepts this source; loaders: ${loaders.map((l) => l.name).join(', ') || '(none)'}`)
    return callHook(loader, 'load', undefined, () =>
      loader.load(src, { signal, cacheDir: opts.cacheDir, baseDir: opts.baseDir, maxBytes: opts.maxBytes, timeoutMs: opts.timeoutMs }),
    )
  }
  return (src: string, path: string): Promise<string> => {
    let pending = seen.get(src)
    if (!pending) {
      pending = fetchSource(src)
      seen.set(src, pending)
    }
    return pending.catch((e: unknown) => {
      const reason = e instanceof Error ? e.message : String(e)
      const code = e instanceof RenderError && e.code !== 'E_PLUGIN_FAILED' ? e.code : 'E_ASSET_UNREADABLE'
      throw new RenderError(code, `${path}.src: cannot load ${JSON.stringify(src)}: ${reason}`, { path: `${path}.src`, src }, { cause: e })
    })
  }
}
