#!/usr/bin/env node
import { nearest } from '../../core/schema/closest.js'
import { UsageError } from './edit-options.js'
import { logger, routeProcessWarnings } from '../../service/log.js'
import { takeLogFormat } from './log-format.js'

// Commands load lazily: `reelforge render` never pays for the service's modules, and `--version`, `keys` or `wallet`
// never for the renderer's (headless-gl, the canvas: ~0.5 CPU-s of imports, as much as their own work).
const COMMANDS: Record<string, (argv: string[]) => Promise<number>> = {
  render: async (argv) => (await import('./render.js')).renderCommand(argv),
  still: async (argv) => (await import('./still.js')).stillCommand(argv),
  preview: async (argv) => (await import('./preview.js')).previewCommand(argv),
  validate: async (argv) => (await import('./validate.js')).validateCommand(argv),
  '--version': async () => (console.log(await version()), 0),
  '-v': async () => (console.log(await version()), 0),
  serve: async (argv) => (await import('./serve.js')).serveCommand(argv),
  worker: async (argv) => (await import('./worker.js')).workerCommand(argv),
  check: async (argv) => (await import('./check.js')).checkCommand(argv),
  keys: async (argv) => (await import('./keys.js')).keysCommand(argv),
  wallet: async (argv) => (await import('./wallet.js')).walletCommand(argv),
  compat: async (argv) => (await import('./compat.js')).compatCommand(argv),
  story: async (argv) => (await import('./story.js')).storyCommand(argv),
}

const USAGE = `reelforge — video composition from Shotstack-style JSON timelines

usage:
  reelforge render <edit.json> [-o out.mp4]    render an edit to a file (default out/<edit>.mp4; --merge, overrides)
  reelforge still <edit.json> -t 2.5 [-o f.png] one frame of an edit as a picture (default out/<edit>-2.5s.png)
  reelforge validate <edit.json> [--probe]      check an edit; exit 2 with every issue and its path (--probe: and
                                                that every source loads and decodes, every font exists)
  reelforge preview <edit.json> [--port 3210]   a local page playing the edit, re-rendered on save, with a scrubber
  reelforge serve [--port 3000] [--data ./data] the /v1 HTTP service (--redis URL: queue renders on BullMQ)
  reelforge worker --redis URL [--data ./data]  render jobs from the BullMQ queue (any machine sharing the storage)
  reelforge check [--create-bucket]             ask the database, Redis and the bucket serve and worker would use
  reelforge keys create [--sandbox] [--admin]   print a new API key (shown once)
  reelforge keys list | revoke <id>
  reelforge wallet deposit <amount> --key KEY   add prepaid credits
  reelforge --version                           the installed version
  --log-format json (env REELFORGE_LOG=json)    serve and worker: one JSON object per log line (time, level, component, message)
  reelforge compat <dir> [--full]               render a folder of Shotstack edits offline, checking each
  reelforge story "<prompt>" -o <out.mp4>       prompt to a narrated, captioned video (offline without keys)

reelforge <command> --help says more about each.
`

/** The package's version, from the package.json above this file (in the source tree and in dist/ alike). */
async function version(): Promise<string> {
  const { readFile } = await import('node:fs/promises')
  for (let dir = new URL('.', import.meta.url); dir.pathname !== '/'; dir = new URL('..', dir)) {
    const pkg = await readFile(new URL('package.json', dir), 'utf8').then(JSON.parse, () => undefined)
    if (pkg?.name === 'reelforge') return pkg.version
  }
  return 'unknown'
}

/** CLI entry: `reelforge <command> [...]`. */
async function main(args: string[]): Promise<number> {
  const argv = takeLogFormat(args)
  if (typeof argv === 'string') {
    console.error(argv)
    return 64
  }
  routeProcessWarnings()
  const [name, ...rest] = argv
  if (!name || ['-h', '--help', 'help'].includes(name)) return (console.error(USAGE), 0)
  const command = COMMANDS[name]
  if (!command) {
    const option = name.startsWith('-')
    const near = nearest(name, option ? ['--version', '--help'] : Object.keys(COMMANDS).filter((c) => !c.startsWith('-')))
    throw new UsageError(`unknown ${option ? 'option' : 'command'} ${JSON.stringify(name)}${near ? ` (did you mean ${near}?)` : ''}; see reelforge --help`)
  }
  return command(rest)
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (e) => {
    // A slip in the command line (any command's), said in one line; anything else as it is, its stack with --debug.
    const log = logger('cli', { prefix: false })
    if (e instanceof UsageError) log.error(`error: ${e.message}`)
    else log.error(process.argv.includes('--debug') ? e : `error: ${e instanceof Error ? e.message : String(e)}`)
    process.exitCode = e instanceof UsageError ? e.exitCode : 1
  },
)
