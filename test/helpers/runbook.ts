import { spawn, type ChildProcess } from 'node:child_process'
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { tempDir } from './media.js'
import { root, scriptArgs } from './serve-child.js'

/**
 * The shell blocks of a runbook (docs/operations.md): each ```sh fence right after a `<!-- runbook: KIND -->`
 * comment, in the document's order. Blocks without the comment are examples, not steps.
 */
export function runbookBlocks(markdown: string): { kind: string; code: string }[] {
  const blocks: { kind: string; code: string }[] = []
  for (const m of markdown.matchAll(/<!-- runbook: ([a-z-]+) -->\n```sh\n([\s\S]*?)```/g)) blocks.push({ kind: m[1]!, code: m[2]! })
  return blocks
}

/** The variables a settings block exports (`export A=… B=…`), sorted. */
export const exportedNames = (code: string) =>
  [
    ...new Set(
      code
        .split('\n')
        .filter((l) => l.startsWith('export '))
        .flatMap((l) => [...l.matchAll(/(?:^export |\s)([A-Z_][A-Z0-9_]*)=/g)].map((m) => m[1]!)),
    ),
  ].sort()

/**
 * Writes, at `file`, a `reelforge` command that runs this checkout's CLI from source, as the installed one would
 * run its build: documents call `reelforge …` as an operator types it.
 */
export function reelforgeShim(file: string): void {
  // From any folder: tsx (running from the sources) takes the checkout's tsconfig (decorators) from the variable,
  // not from the cwd; the compiled tree needs no loader.
  const command = scriptArgs('adapters/cli/main.ts').map((a) => `"${a}"`)
  const shim = `#!/bin/sh\nTSX_TSCONFIG_PATH="${join(root, 'tsconfig.json')}" exec "${process.execPath}" ${command.join(' ')} "$@"\n`
  writeFileSync(file, shim)
  chmodSync(file, 0o755)
}

/** A folder with that `reelforge` command in it, for PATH: the runbook's lines call `reelforge …`. */
export function reelforgeOnPath(): string {
  const bin = join(tempDir('reelforge-runbook-bin-'), 'bin')
  mkdirSync(bin)
  reelforgeShim(join(bin, 'reelforge'))
  return bin
}

/** `bash` running `script` under `set -euo pipefail` in `cwd`; its output and, when asked, the environment it ends with. */
export function bash(script: string, env: Record<string, string>, cwd: string, timeoutMs = 120_000) {
  const child = spawn('bash', ['-c', `set -euo pipefail\n${script}\nenv -0 >&3`], { cwd, env, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] })
  let output = ''
  let stdout = ''
  let finalEnv = ''
  child.stdout!.on('data', (d) => ((stdout += d), (output += d)))
  child.stderr!.on('data', (d) => (output += d))
  child.stdio[3]!.on('data', (d) => (finalEnv += d))
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
  return new Promise<{ code: number | null; output: string; stdout: string; env: Record<string, string> }>((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer)
      const vars = Object.fromEntries(
        finalEnv
          .split('\0')
          .filter(Boolean)
          .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
      )
      resolve({ code, output, stdout, env: vars })
    }),
  )
}

/** A long-running block after `prelude` (its one command `exec`ed, so signals reach it), with everything it prints. */
export function daemon(prelude: string, command: string, env: Record<string, string>, cwd: string): { child: ChildProcess; log: () => string } {
  const child = spawn('bash', ['-c', `set -euo pipefail\n${prelude}\nexec ${command.trim()}`], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let log = ''
  child.stdout!.on('data', (d) => (log += d))
  child.stderr!.on('data', (d) => (log += d))
  return { child, log: () => log }
}

export const operationsDoc = () => readFileSync(join(root, 'docs/operations.md'), 'utf8')
