/**
 * Every failure the core reports is a `RenderError` carrying one code from this union.
 * Adapters map codes to HTTP statuses or exit codes; nothing branches on message text.
 */
export type RenderErrorCode =
  | 'E_TIMELINE_INVALID'
  | 'E_PLUGIN_NOT_FOUND'
  | 'E_PLUGIN_DUPLICATE'
  | 'E_PLUGIN_FAILED'
  | 'E_ASSET_UNREADABLE'
  | 'E_ASSET_TOO_LARGE'
  | 'E_GL_UNAVAILABLE'
  | 'E_FFMPEG_MISSING'
  | 'E_OUTPUT_FAILED'
  | 'E_RENDERER_CRASHED'
  | 'E_LIMIT_EXCEEDED'
  | 'E_PROVIDER_FAILED'
  | 'E_PROVIDER_TIMEOUT'
  | 'E_CANCELLED'
  /** A render ran past its time budget (service limits). */
  | 'E_TIME_LIMIT'
  /** A render process grew past its memory ceiling (service limits). */
  | 'E_MEMORY_LIMIT'

/** One problem found in an edit: where (`timeline.tracks[1].clips[0].asset.src`) and which rule it broke. */
export interface Issue {
  path: string
  message: string
}

/** A non-fatal remark on an edit (unknown key, unresolved merge field, substituted font…). */
export type Warning = Issue

/**
 * The one error class of reelforge's core.
 * @example
 * throw new RenderError('E_ASSET_UNREADABLE', `cannot read ${url}`, { path: 'timeline.tracks[0].clips[2].asset.src' })
 */
export class RenderError extends Error {
  override name = 'RenderError'
  constructor(
    readonly code: RenderErrorCode,
    message: string,
    readonly data?: { path?: string; issues?: Issue[]; [key: string]: unknown },
    options?: ErrorOptions,
  ) {
    super(message, options)
  }
}

/** Builds the single `E_TIMELINE_INVALID` error that lists every issue (the first 100, then a count), each on its own line. */
/** At most this many issues or warnings are reported; the rest are counted (a 3 MB edit can hold 200k). */
export const MAX_REPORTED = 100

/** The first `MAX_REPORTED` of a list, then one entry that says how many more there were. */
export function capped<T extends Issue>(list: T[], what: string): T[] {
  if (list.length <= MAX_REPORTED) return list
  return [...list.slice(0, MAX_REPORTED), { path: '', message: `…and ${list.length - MAX_REPORTED} more ${what} not listed` } as T]
}

export function invalidTimeline(all: Issue[]): RenderError {
  const issues = capped(all, 'issues')
  const lines = issues.map((i) => `  ${i.path || '(root)'}: ${i.message}`)
  return new RenderError('E_TIMELINE_INVALID', `invalid edit (${all.length} issue${all.length === 1 ? '' : 's'}):\n${lines.join('\n')}`, { issues })
}

/**
 * Wraps anything a plugin throws with the plugin's identity (rollup's logPluginError), keeping RenderErrors' codes:
 * `timeline.tracks[0].clips[2].asset: [asset:video] open: <message>`. The path leads, as in every other error.
 */
export function pluginError(kind: string, name: string, hook: string, error: unknown, path?: string): RenderError {
  if (error instanceof RenderError) return error
  const message = error instanceof Error ? error.message : String(error)
  return new RenderError(
    'E_PLUGIN_FAILED',
    `${path ? `${path}: ` : ''}[${kind}:${name}] ${hook}: ${message}`,
    { path, plugin: `${kind}:${name}` },
    { cause: error },
  )
}
