#!/usr/bin/env node
import { renderCommand } from './render.js'

const COMMANDS: Record<string, (argv: string[]) => Promise<number>> = {
  render: renderCommand,
}

const USAGE = `reelforge — video composition from Shotstack-style JSON timelines

usage:
  reelforge render <edit.json> -o <out.mp4>    render an edit to a file
`

/** CLI entry: `reelforge <command> [...]`. */
async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv
  const command = name ? COMMANDS[name] : undefined
  if (!command) {
    console.error(USAGE)
    return name && !['-h', '--help', 'help'].includes(name) ? 64 : 0
  }
  return command(rest)
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (e) => {
    console.error(e)
    process.exitCode = 1
  },
)
