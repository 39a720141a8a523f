import { parseArgs, type ParseArgsConfig } from 'node:util'
import { nearest } from '../../core/schema/closest.js'
import { UsageError } from './edit-options.js'

type Options = NonNullable<ParseArgsConfig['options']>

/**
 * `parseArgs` for a command (`render`, `keys`…), its slips answered in one line that says what to do instead of
 * Node's own words: an unknown option with the closest one, a value missing or one too many, and the command's
 * help to read. Thrown as a UsageError (exit 64).
 */
export function parseCommand<T extends ParseArgsConfig & { options: Options }>(command: string, config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs({ ...config, args: config.args && negativesJoined(config.args, config.options) } as T)
  } catch (e) {
    const code = (e as { code?: string }).code
    if (!code?.startsWith('ERR_PARSE_ARGS_')) throw e
    throw new UsageError(`${argsSlip((e as Error).message, config.options)}; see reelforge ${command} --help`)
  }
}

/**
 * `-t -1` as `--time=-1`: Node's parser takes a value starting with a dash for an option and answers "argument is
 * ambiguous"; a negative number is no option, so it is handed to the option before it, whose own check says what it takes.
 */
function negativesJoined(args: readonly string[], options: Options): string[] {
  const out: string[] = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    const name = arg.startsWith('--') ? arg.slice(2) : Object.keys(options).find((n) => options[n]!.short !== undefined && `-${options[n]!.short}` === arg)
    if (name && options[name]?.type === 'string' && /^-\d/.test(args[i + 1] ?? '')) out.push(`--${name}=${args[++i]}`)
    else out.push(arg)
  }
  return out
}

/** Node's message (Node 20 and later word them alike), said shortly in the CLI's terms. */
function argsSlip(message: string, options: Options): string {
  const unknown = /^Unknown option '(-{1,2}[^']*)'/.exec(message)?.[1]
  if (unknown) {
    const names = Object.keys(options).map((n) => `--${n}`)
    const near = unknown.startsWith('--') ? nearest(unknown, names) : undefined
    return `unknown option ${unknown}${near ? ` (did you mean ${near}?)` : ''}`
  }
  const missing = /^Option '(?:(-\w), )?(--[\w-]+) <value>' argument missing/.exec(message)
  if (missing) return `${missing[1] ? `${missing[1]} (${missing[2]})` : missing[2]} needs a value`
  const extra = /^Option '(?:-\w, )?(--[\w-]+)' does not take an argument/.exec(message)
  if (extra) return `${extra[1]} takes no value`
  const positional = /^Unexpected argument '([^']*)'/.exec(message)
  if (positional) return `unexpected argument ${JSON.stringify(positional[1])}`
  return message.split('. ')[0]!
}
