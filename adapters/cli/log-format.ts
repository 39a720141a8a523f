import { LOG_FORMATS, type LogFormat, setLogFormat } from '../../service/log.js'

/**
 * Takes `--log-format text|json` (or `--log-format=json`) out of a command line, wherever it stands, and
 * switches the process's log lines to that format (`REELFORGE_LOG` says the same from the environment).
 * Returns the rest, or an error message for a format that does not exist.
 */
export function takeLogFormat(argv: string[]): string[] | string {
  const rest: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg !== '--log-format' && !arg.startsWith('--log-format=')) {
      rest.push(arg)
      continue
    }
    const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[++i]
    if (!LOG_FORMATS.includes(value as LogFormat)) return `--log-format must be ${LOG_FORMATS.join(' or ')}${value ? `, not ${value}` : ''}`
    setLogFormat(value as LogFormat)
  }
  return rest
}
