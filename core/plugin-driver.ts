import { pluginError, RenderError } from './errors.js'

/**
 * The one place a plugin's failure becomes a RenderError (rollup's PluginDriver): every call the core makes
 * into a plugin hook goes through `callHook` (cold hooks) or a try/catch that throws `hookError` (hot,
 * per-frame hooks, where a closure per call would cost an allocation a frame).
 */

/** What a hook's error names: the plugin's `kind:name` (a plugin object itself qualifies). */
export interface PluginId {
  readonly kind: string
  readonly name: string
}

/** An abort the caller asked for is no failure of the plugin's: it passes as it is (a render reports `E_CANCELLED`). */
const isAbort = (e: unknown) => e instanceof Error && e.name === 'AbortError'

/**
 * What to throw for `error`, thrown by `plugin`'s `hook` while working for `path` (the clip's
 * `timeline.tracks[0].clips[2].asset`, or `output`). A RenderError passes through unchanged — the plugin
 * chose its code and message on purpose (E_ASSET_UNREADABLE naming a src) — and so does an abort; anything
 * else becomes `E_PLUGIN_FAILED` naming the path, the plugin and the hook, with the original as `cause`.
 */
export function hookError(plugin: PluginId, hook: string, path: string | undefined, error: unknown): unknown {
  if (error instanceof RenderError || isAbort(error)) return error
  return pluginError(plugin.kind, plugin.name, hook, error, path)
}

/**
 * Calls a cold hook (prepare, open, compile, fit, load, generate, output open/close): what it throws, or
 * the promise it returns rejects with, comes out through `hookError`.
 * @example
 * const prepared = await callHook(plugin, 'prepare', `${path}.asset`, () => plugin.prepare(params, ctx))
 */
export function callHook<T>(plugin: PluginId, hook: string, path: string | undefined, fn: () => T): T {
  let result: T
  try {
    result = fn()
  } catch (e) {
    throw hookError(plugin, hook, path, e)
  }
  if (result instanceof Promise) {
    return result.catch((e: unknown) => {
      throw hookError(plugin, hook, path, e)
    }) as T
  }
  return result
}

/**
 * For code a plugin hands the core to run (a filter's GLSL body): whatever compiling it throws is the
 * plugin's failure, even the core's own RenderError — `E_GL_UNAVAILABLE` from the shader compiler would
 * blame the GPU for the plugin's typo.
 */
export function codeError(plugin: PluginId, hook: string, path: string | undefined, error: unknown): RenderError {
  const own = error instanceof RenderError ? new Error(error.message, { cause: error }) : error
  return pluginError(plugin.kind, plugin.name, hook, own, path)
}

/**
 * `work`, unless `signal` aborts first: then `E_CANCELLED` within a turn, and `work` is left to settle unobserved (a
 * late failure of it is swallowed, not an unhandled rejection). For a plugin's hook, which may never answer: a
 * cancelled render must not wait on it.
 */
export function unlessAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  const cancelled = () => {
    work.catch(() => {})
    return new RenderError('E_CANCELLED', 'render cancelled')
  }
  if (signal.aborted) return Promise.reject(cancelled())
  return new Promise<T>((resolve, reject) => {
    // A turn's grace: work that stops at the abort itself settles first, with its own reason (the cause kept).
    const onAbort = () => setImmediate(() => reject(cancelled()))
    signal.addEventListener('abort', onAbort, { once: true })
    work.then(
      (value) => (signal.removeEventListener('abort', onAbort), resolve(value)),
      (e: unknown) => (signal.removeEventListener('abort', onAbort), reject(e)),
    )
  })
}
