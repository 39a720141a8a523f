import { spawn } from 'node:child_process'
import { cpSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { tempDir } from './media.js'
import { reelforgeShim } from './runbook.js'
import { root, runnable, tsxLoader } from './serve-child.js'

/** The documents a newcomer reads: README and every file in docs/. */
export const documents = () => [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
]

/** An example marked to run: where it is, its language, its code, the exit status it must end with, lines it must print. */
export interface Runnable {
  where: string
  lang: 'sh' | 'ts'
  code: string
  exit: number
  expected: string[]
}

/**
 * The examples of a document marked to run (CONTRIBUTING.md, "Docs that run"): the fence right after
 * `<!-- runnable -->`, or `<!-- runnable exit=N -->` for one that shows a refusal; and, when the next fence comes
 * right after `<!-- output -->`, its lines as what the example must print. `problems` names every marker that marks
 * nothing it can run, so a typo never quietly leaves an example unchecked.
 */
export function runnableBlocks(file: string, markdown: string): { blocks: Runnable[]; problems: string[] } {
  const lines = markdown.split('\n')
  const blocks: Runnable[] = []
  const problems: string[] = []
  let marker: { kind: 'runnable' | 'output'; exit: number; line: number } | undefined
  let lastFenceWasRunnable = false
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    const comment = /^<!-- (runnable(?: exit=(\d+))?|output) -->$/.exec(line)
    if (comment) {
      if (marker) problems.push(`${file}:${marker.line}: <!-- ${marker.kind} --> marks no fence`)
      marker = { kind: comment[1] === 'output' ? 'output' : 'runnable', exit: Number(comment[2] ?? 0), line: i + 1 }
      continue
    }
    const fence = /^(\s*)```(\S*)/.exec(line)
    if (!fence) {
      if (marker && line.trim()) {
        problems.push(`${file}:${marker.line}: <!-- ${marker.kind} --> is not right before a fence`)
        marker = undefined
      }
      continue
    }
    // A fence with an info string before the closing one means a fence above was left open.
    const end = lines.findIndex((l, j) => j > i && /^\s*```/.test(l))
    if (end < 0 || lines[end]!.trim() !== '```') return { blocks, problems: [...problems, `${file}:${i + 1}: a fence that never closes`] }
    const code = lines.slice(i + 1, end).join('\n')
    if (marker?.kind === 'runnable') {
      if (fence[2] === 'sh' || fence[2] === 'ts') blocks.push({ where: `${file}:${i + 1}`, lang: fence[2], code, exit: marker.exit, expected: [] })
      else problems.push(`${file}:${i + 1}: only sh and ts blocks run, not "${fence[2]}"`)
    } else if (marker?.kind === 'output') {
      if (lastFenceWasRunnable) blocks.at(-1)!.expected = code.split('\n').filter((l) => l.trim())
      else problems.push(`${file}:${i + 1}: <!-- output --> does not follow a runnable block`)
    }
    lastFenceWasRunnable = marker?.kind === 'runnable'
    marker = undefined
    i = end
  }
  if (marker) problems.push(`${file}:${marker.line}: <!-- ${marker.kind} --> marks no fence`)
  return { blocks, problems }
}

/**
 * A fresh folder laid out as a user's app with reelforge installed — `npx reelforge` and `import … from 'reelforge'`
 * work there, both from this checkout's source (its dist/ is built only for packing) — holding a copy of the
 * clone's examples/.
 */
export function appFolder(): string {
  const dir = tempDir('reelforge-docs-')
  const pkg = join(dir, 'node_modules', 'reelforge')
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true })
  mkdirSync(pkg)
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'docs-example', private: true, type: 'module' }))
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'reelforge', type: 'module', exports: { '.': './index.js', './kit': './kit.js' } }))
  for (const entry of ['index', 'kit']) writeFileSync(join(pkg, `${entry}.js`), `export * from '${pathToFileURL(runnable(join(root, `${entry}.ts`))).href}'\n`)
  reelforgeShim(join(dir, 'node_modules', '.bin', 'reelforge'))
  // What docs/plugins.md has an app install beside reelforge for its asset plugin's schema.
  symlinkSync(join(root, 'node_modules', 'valibot'), join(dir, 'node_modules', 'valibot'))
  // Copies of the files (`dereference`): in the compiled tree examples/ is a link, and a copied link would let the
  // rewrites below reach the repository's own examples.
  cpSync(join(root, 'examples'), join(dir, 'examples'), { recursive: true, dereference: true })
  return dir
}

/**
 * The environment an example runs in: the test's own without the deployment's settings, `PORT` a free port (a
 * server an example starts listens there), and npm kept offline (a missing command fails instead of downloading).
 */
export function exampleEnv(port: number): Record<string, string> {
  const inherited = Object.entries(process.env).filter(([k, v]) => v !== undefined && !/^(REELFORGE_|AWS_|PORT$|HOST$)/.test(k))
  return { ...(Object.fromEntries(inherited) as Record<string, string>), PORT: String(port), npm_config_offline: 'true' }
}

/**
 * Runs an example in `cwd` — a shell block with bash under `set -euo pipefail`, a TypeScript block as `example.ts`
 * through tsx — in a process group of its own, which ends with it: a server it started with `&` goes too.
 */
export function runBlock(block: Runnable, cwd: string, env: Record<string, string>, timeoutMs = 60_000) {
  if (block.lang === 'ts') writeFileSync(join(cwd, 'example.ts'), block.code)
  const [command, args] = block.lang === 'sh' ? ['bash', ['-c', `set -euo pipefail\n${block.code}`]] : [process.execPath, ['--import', tsxLoader, 'example.ts']]
  const child = spawn(command as string, args as string[], {
    cwd,
    env: { ...env, TSX_TSCONFIG_PATH: join(root, 'tsconfig.json') },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const group = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal)
    } catch {}
  }
  let output = ''
  child.stdout!.on('data', (d) => (output += d))
  child.stderr!.on('data', (d) => (output += d))
  const timer = setTimeout(() => group('SIGKILL'), timeoutMs)
  let code: number | null = null
  child.on('exit', (c) => {
    code = c
    group('SIGTERM')
    setTimeout(() => group('SIGKILL'), 10_000).unref()
  })
  return new Promise<{ code: number | null; output: string }>((resolve) =>
    child.on('close', () => {
      clearTimeout(timer)
      resolve({ code, output })
    }),
  )
}

/** The expected lines `output` lacks: each must appear in it as written, `…` standing for any text. */
export const missingLines = (expected: string[], output: string) =>
  expected.filter((line) => !new RegExp(line.trim().split('…').map(escapeRegExp).join('.*')).test(output))

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
