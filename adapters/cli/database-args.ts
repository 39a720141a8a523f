import { existsSync } from 'node:fs'
import type { parseArgs, ParseArgsConfig } from 'node:util'
import { dbTarget, defaultConfig } from '../../service/config.js'
import { type Db, openDatabase } from '../../service/db/db.js'
import { parseCommand } from './args.js'
import { UsageError } from './edit-options.js'

/** `--data` and `--database`: where the service keeps its state, the same two options on every command that opens it. */
export const DATABASE_OPTIONS = {
  data: { type: 'string', short: 'd' },
  database: { type: 'string' },
} as const

/** The data folder: `--data`, else `REELFORGE_DATA`, else `./data` (as `serve` reads it). */
export const dataDirOf = (values: { data?: string }) => values.data ?? process.env.REELFORGE_DATA ?? 'data'

const HELP = { help: { type: 'boolean', short: 'h' } } as const

/**
 * `<action> [positionals] [options]` parsed with the database options and `--help` added, for the commands that
 * act on the service's database (`keys`, `wallet`) without starting it. `keys --help` has no action.
 */
export function parseDatabaseCommand<O extends Options>(command: string, argv: string[], options: O): { action?: string } & Parsed<O> {
  const action = argv[0]?.startsWith('-') ? undefined : argv[0]
  const args = action === undefined ? argv : argv.slice(1)
  return { action, ...(parseCommand(command, { args, allowPositionals: true, options: { ...options, ...DATABASE_OPTIONS, ...HELP } }) as Parsed<O>) }
}
type Options = NonNullable<ParseArgsConfig['options']>
type Parsed<O extends Options> = ReturnType<typeof parseArgs<{ args: string[]; allowPositionals: true; options: O & typeof DATABASE_OPTIONS & typeof HELP }>>

/**
 * Opens the database `serve` would open with the same `--data` / `--database` (env `REELFORGE_DATABASE_URL`). Only
 * `create` (keys create: a first key starts a service) makes a SQLite database that is not there: for any other
 * command a missing one is a mistyped `--data`, said with exit 66 instead of an empty database made and listed.
 */
export function openServiceDatabase(values: { data?: string; database?: string }, opts: { create?: boolean } = {}): Promise<Db> {
  const target = dbTarget(defaultConfig({ dataDir: dataDirOf(values), ...(values.database ? { databaseUrl: values.database } : {}) }))
  if (!opts.create && !/^postgres(ql)?:\/\//i.test(target) && !existsSync(target))
    throw new UsageError(
      `no service database in ${dataDirOf(values)} (--data names the folder reelforge serve keeps its data in; reelforge keys create starts one)`,
      66,
    )
  return openDatabase(target)
}
