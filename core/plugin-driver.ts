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
 * `work`, unless `signal` aborts first: then `E_CANCELLED` within a turn, and `work` is left to settle unobserved —
 * what it answers late goes to `onLate` (a sink to abort, an asset to dispose), a late failure is swallowed (no
 * unhandled rejection). For a plugin's hook, which may never answer: a cancelled render must not wait on it. A
 * plain value (a JavaScript plugin's synchronous hook) passes as it is.
 */
export function unlessAborted<T>(work: T | Promise<T>, signal: AbortSignal, onLate?: (value: T) => unknown): Promise<T> {
  const settled = Promise.resolve(work)
  // What the work answers after the render gave up on it: handed on, whatever that throws swallowed.
  const late = (value: T) => {
    try {
      Promise.resolve(onLate?.(value)).catch(() => {})
    } catch {}
  }
  const cancelled = () => new RenderError('E_CANCELLED', 'render cancelled')
  if (signal.aborted) {
    settled.then(late, () => {})
    return Promise.reject(cancelled())
  }
  return new Promise<T>((resolve, reject) => {
    let done = false
    // A turn's grace: work that stops at the abort itself settles first, with its own reason (the cause kept).
    const onAbort = () => setImmediate(() => !done && ((done = true), reject(cancelled())))
    signal.addEventListener('abort', onAbort, { once: true })
    settled.then(
      (value) => {
        signal.removeEventListener('abort', onAbort)
        if (done) late(value)
        else (done = true), resolve(value)
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort)
        if (!done) (done = true), reject(e)
      },
    )
  })
}
