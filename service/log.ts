import { inspect } from 'node:util'

/**
 * The one way the service and its processes (`serve`, `worker`) log. Plain text by default, each line as it
 * always read (`[component] message`); with `REELFORGE_LOG=json` (or `--log-format json`) one JSON object
 * per line: `{"time","level","component","message"}`, for a log collector. Info goes to stdout, warnings and
 * errors to stderr, in both formats.
 */
export type LogLevel = 'info' | 'warn' | 'error'
export type LogFormat = 'text' | 'json'

export interface Logger {
  info(...parts: unknown[]): void
  warn(...parts: unknown[]): void
  error(...parts: unknown[]): void
}

export const LOG_FORMATS: readonly LogFormat[] = ['text', 'json']

/** Switches this process's format; render processes it starts inherit it through the environment. */
export function setLogFormat(format: LogFormat): void {
  process.env.REELFORGE_LOG = format
}

export const logFormat = (): LogFormat => (process.env.REELFORGE_LOG === 'json' ? 'json' : 'text')

/** Parts as `console.log` would join them: strings as they are, errors with their stack, the rest inspected. */
const joined = (parts: unknown[]) => parts.map((p) => (typeof p === 'string' ? p : inspect(p))).join(' ')

/**
 * A component's logger. `prefix: false` keeps a line's text bare in the text format (a process's own
 * lines: `reelforge listening on …`, `rendering <id> (attempt 1)`); JSON lines always name the component.
 */
export function logger(component: string, opts: { prefix?: boolean } = {}): Logger {
  const write = (level: LogLevel, parts: unknown[]) => {
    const message = joined(parts)
    const line =
      logFormat() === 'json'
        ? JSON.stringify({ time: new Date().toISOString(), level, component, message })
        : opts.prefix === false
          ? message
          : `[${component}] ${message}`
    // Looked up at each call: a test that swaps console.warn sees these lines.
    if (level === 'info') console.log(line)
    else if (level === 'warn') console.warn(line)
    else console.error(line)
  }
  return {
    info: (...parts) => write('info', parts),
    warn: (...parts) => write('warn', parts),
    error: (...parts) => write('error', parts),
  }
}

/**
 * In the JSON format, Node's own process warnings (printed as several plain lines) become log lines too, so
 * every line a process writes parses. Called once by the CLI, after the format is known.
 */
export function routeProcessWarnings(): void {
  if (logFormat() !== 'json') return
  process.removeAllListeners('warning')
  const log = logger('node')
  process.on('warning', (w) => log.warn(`${w.name}: ${w.message}`))
}
