// The tree the test suite runs from: the repository as it is, with every TypeScript file compiled beside itself to
// JavaScript (esbuild, the compiler tsx uses, so the code is the same), in `.cache/test-tree/<pid>/repo/` (one per
// run, so a second run in the same checkout never pulls the tree from under the first). Plain `node`
// then loads the suite and every process it starts (render processes, the CLI) without tsx's loader: about half the
// CPU a file's start-up cost through tsx, and the suite is CPU-bound on two cores (CONTRIBUTING.md has the figures).
//
// Everything else is a symlink to the real file or folder (fixtures, node_modules, dist, docs, the `.ts` sources
// themselves), so a test that reads source, docs or fixtures reads the real ones and a cache it writes persists. The
// tree sits two levels below the repository so that `<tree>/..` can hold a `shared` link to `<repo>/../shared`:
// tests find the real Shotstack edits at `../shared` from the tree as they do from the repository.
import { existsSync, lstatSync, mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { build } from 'esbuild'

/** Top-level folders holding TypeScript that tests load; every other entry of the repository is linked as it is. */
const COMPILED = ['core', 'plugins', 'service', 'adapters', 'test', 'scripts', 'benchmarks']
const SKIP = new Set(['.git', '.cache'])
const isSource = (name) => /\.(ts|tsx|mts)$/.test(name) && !name.endsWith('.d.ts')
const holdsSource = (dir) => readdirSync(dir, { withFileTypes: true }).some((e) => (e.isDirectory() ? holdsSource(join(dir, e.name)) : isSource(e.name)))

/** Builds the tree for the repository at `repo` (fresh each time: a deleted source leaves no stale module); returns its root. */
export async function compileTests(repo = process.cwd()) {
  const trees = join(repo, '.cache', 'test-tree')
  // Trees of runs that ended go; this run's is rebuilt from nothing.
  for (const pid of existsSync(trees) ? readdirSync(trees) : [])
    if (pid === String(process.pid) || !running(Number(pid))) rmSync(join(trees, pid), { recursive: true, force: true })
  const base = join(trees, String(process.pid))
  const tree = join(base, 'repo')
  mkdirSync(tree, { recursive: true })
  const shared = join(base, 'shared')
  if (!existsSync(shared) && existsSync(resolve(repo, '..', 'shared'))) symlinkSync(resolve(repo, '..', 'shared'), shared)
  const sources = []
  const mirror = (rel) => {
    mkdirSync(join(tree, rel), { recursive: true })
    for (const e of readdirSync(join(repo, rel), { withFileTypes: true })) {
      const path = join(rel, e.name)
      // A folder without TypeScript is linked whole, so what tests write into it lands in the repository.
      if (e.isDirectory() && holdsSource(join(repo, path))) mirror(path)
      else symlinkSync(join(repo, path), join(tree, path))
      if (e.isFile() && isSource(e.name)) sources.push(path)
    }
  }
  for (const name of readdirSync(repo)) {
    if (SKIP.has(name)) continue
    if (COMPILED.includes(name) && lstatSync(join(repo, name)).isDirectory()) mirror(name)
    else {
      symlinkSync(join(repo, name), join(tree, name))
      if (isSource(name)) sources.push(name)
    }
  }
  // The dashboard's browser code has its own settings (JSX for Preact); `.mts` files keep their module extension.
  const ui = (f) => f.startsWith(join('adapters', 'dashboard', 'ui'))
  const groups = [
    { files: sources.filter((f) => !ui(f) && !f.endsWith('.mts')), tsconfig: 'tsconfig.json', ext: '.js' },
    { files: sources.filter((f) => !ui(f) && f.endsWith('.mts')), tsconfig: 'tsconfig.json', ext: '.mjs' },
    { files: sources.filter(ui), tsconfig: join('adapters', 'dashboard', 'ui', 'tsconfig.json'), ext: '.js' },
  ]
  // esbuild writes through a link: an output landing on a linked file (`x.ts` beside a real `x.js`) would overwrite it.
  for (const g of groups)
    for (const f of g.files) {
      const out = join(tree, f.replace(/\.(ts|tsx|mts)$/, g.ext))
      if (existsSync(out)) throw new Error(`compile-tests: ${f} would compile onto ${relative(tree, out)}, which the repository holds`)
    }
  for (const g of groups.filter((g) => g.files.length))
    await build({
      entryPoints: g.files.map((f) => join(repo, f)),
      outbase: repo,
      outdir: tree,
      outExtension: { '.js': g.ext },
      format: 'esm',
      platform: 'node',
      target: 'node20',
      tsconfig: join(repo, g.tsconfig),
      logLevel: 'error',
    })
  return tree
}

function running(pid) {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return e.code === 'EPERM'
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.dirname, 'compile-tests.mjs')) {
  const started = performance.now()
  const tree = await compileTests()
  console.log(`compiled into ${relative('.', tree)} in ${Math.round(performance.now() - started)} ms`)
}
