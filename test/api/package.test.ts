import { execFileSync } from 'node:child_process'
import { cpSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { probe } from '../../kit.js'
import { tempDir } from '../helpers/media.js'

// The package as an app installs it: `npm pack` (prepack builds dist/), installed from the tarball into an empty
// folder, then imported, typed, and run through its bin. Install scripts are skipped and gl's addon is copied from
// this checkout (the same machine already compiled it: a second 2.5-minute build would test nothing new).

// The repository itself, also when the suite runs from the compiled tree (scripts/compile-tests.mjs), whose files
// are links that npm would not pack.
const root = `${dirname(realpathSync(new URL('../../package.json', import.meta.url)))}/`
const dir = tempDir('reelforge-pack-')
const run = (cmd: string, args: string[], cwd: string) => {
  try {
    return execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
  } catch (e) {
    const { stdout, stderr } = e as { stdout?: string; stderr?: string }
    throw new Error(`${cmd} ${args.join(' ')} failed:\n${stdout ?? ''}${stderr ?? ''}`.slice(0, 4000))
  }
}

/**
 * What `npm pack` builds from, copied from the checkout (node_modules linked): prepack removes and rebuilds dist/
 * there, so the files running beside this one keep reading the checkout's own dist/ (the dashboard bundle).
 */
function packSource(): string {
  const source = join(dir, 'source')
  // Everything but what git ignores (tests, benchmarks and docs included: the check below must see them left out).
  const ignored = new Set(['.git', '.cache', 'node_modules', 'dist', 'out', 'data', '.test-output', '.scratch', '.media'])
  for (const name of readdirSync(root).filter((n) => !ignored.has(n)))
    cpSync(join(root, name), join(source, name), { recursive: true, dereference: true, filter: (from) => !ignored.has(basename(from)) })
  symlinkSync(join(root, 'node_modules'), join(source, 'node_modules'))
  return source
}

test('npm pack → npm install <tgz> in a clean folder: it renders, its bin runs, its types resolve; only what runs ships', async () => {
  // prepack's own output (the dashboard build) comes first on stdout; the JSON report is the rest.
  const source = packSource()
  const out = run('npm', ['pack', '--json', '--pack-destination', dir], source)
  const packed = JSON.parse(out.slice(out.search(/^\[/m))) as { filename: string; files: { path: string }[] }[]
  // prepack built dist/ with `npm run build`, as README has a clone do before `npx reelforge …`: npm runs a
  // project's own bin as a command there (no install links it), so the file must be executable.
  assert.ok(statSync(join(source, 'dist/adapters/cli/main.js')).mode & 0o100, 'the built CLI is executable in the clone')
  const files = packed[0]!.files.map((f) => f.path)
  assert.ok(files.includes('LICENSE') && files.includes('dist/index.js') && files.includes('dist/index.d.ts') && files.includes('dist/dashboard/app.js'))
  assert.ok(files.includes('dist/adapters/cli/main.js'))
  const stray = files.filter(
    (f) => !/^(dist\/|LICENSE$|README\.md$|CHANGELOG\.md$|package\.json$|scripts\/setup\.sh$)/.test(f) || /\.test\.|^dist\/test\//.test(f),
  )
  assert.equal(stray, [], 'sources, tests and benchmarks stay out of the package')
  // The compiled modules' source maps would point at .ts files that are not shipped; only the dashboard bundle's
  // maps ship (the page serves them), and they carry their sources inside (checked after the install).
  const maps = files.filter((f) => f.endsWith('.map'))
  assert.equal(
    maps.filter((f) => !f.startsWith('dist/dashboard/')),
    [],
    'no source map pointing at absent sources',
  )

  const app = join(dir, 'app')
  mkdirSync(app)
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }))
  // An app in TypeScript has Node's types, as this checkout does (the same version).
  const typesNode = JSON.parse(readFileSync(join(root, 'node_modules/@types/node/package.json'), 'utf8')).version
  run('npm', ['install', join(dir, packed[0]!.filename), `@types/node@${typesNode}`, '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline'], app)
  cpSync(join(root, 'node_modules/gl/build'), join(app, 'node_modules/gl/build'), { recursive: true })

  writeFileSync(
    join(app, 'render.ts'),
    `import { createRenderer, type Edit } from 'reelforge'
import type { PrepareContext } from 'reelforge/kit'
const edit: Edit = {
  timeline: { tracks: [{ clips: [{ asset: { type: 'title', text: 'installed' }, start: 0, length: 1 }] }] },
  output: { format: 'mp4', resolution: 'preview' },
}
const result = await createRenderer().render(edit, { out: 'out.mp4' })
console.log(JSON.stringify({ frames: result.frames }))
// @ts-expect-error an edit's output format is checked: only real types make this an error
const wrong: Edit = { timeline: { tracks: [] }, output: { format: 'avi' } }
// A plugin's author adds its names to reelforge's; built-in names stay checked.
declare module 'reelforge' {
  interface TransitionNames { 'my-iris': true }
}
const clip = { asset: { type: 'title', text: 'x' }, start: 0, length: 1 } as const
const custom: Edit = { timeline: { tracks: [{ clips: [{ ...clip, transition: { in: 'my-iris' } }] }] } }
// @ts-expect-error a misspelt built-in transition
const fadee: Edit = { timeline: { tracks: [{ clips: [{ ...clip, transition: { in: 'fadee' } }] }] } }
// @ts-expect-error an asset type that does not exist
const titel: Edit = { timeline: { tracks: [{ clips: [{ asset: { type: 'titel', text: 'x' }, start: 0, length: 1 }] }] } }
// The plugin authors' entry compiles as well.
export type Prepare = PrepareContext
`,
  )
  writeFileSync(
    join(app, 'tsconfig.json'),
    // skipLibCheck off, as strict apps set it: every .d.ts the package's types reach is compiled, so they must reach
    // none that fails (h3's did, through the service's types) — only reelforge's own, valibot's, undici's and Node's.
    JSON.stringify({
      compilerOptions: { target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, skipLibCheck: false, types: ['node'] },
      files: ['render.ts'],
    }),
  )
  run(join(root, 'node_modules/.bin/tsc'), ['-p', '.'], app) // throws with the compiler's errors if the types do not resolve
  const packages = run(join(root, 'node_modules/.bin/tsc'), ['-p', '.', '--listFilesOnly'], app)
    .split('\n')
    .filter((f) => f.includes('/node_modules/'))
    .map((f) => f.slice(f.lastIndexOf('/node_modules/') + 14).split('/'))
    .map(([scope, name]) => (scope!.startsWith('@') ? `${scope}/${name}` : scope!))
  // Node's and TypeScript's own, valibot's (EditSchema is one), undici's (kit's network guard hands out its Agent;
  // its types import 'buffer', which finds the npm package of that name where one is installed).
  const allowed = ['@types/node', 'typescript', 'reelforge', 'valibot', 'undici', 'undici-types', 'buffer']
  assert.ok(packages.includes('reelforge') && packages.includes('valibot'), 'the listing holds the package itself')
  assert.equal([...new Set(packages.filter((p) => !allowed.includes(p)))], [], "the public types reach no other package's (no h3, crossws, tsyringe)")
  // Run as JavaScript (the types were checked above): strip the one type annotation.
  writeFileSync(
    join(app, 'render.mjs'),
    `import { createRenderer } from 'reelforge'
const result = await createRenderer().render({
  timeline: { tracks: [{ clips: [{ asset: { type: 'title', text: 'installed' }, start: 0, length: 1 }] }] },
  output: { format: 'mp4', resolution: 'preview', fps: 25 },
}, { out: 'out.mp4' })
console.log(JSON.stringify({ frames: result.frames }))
`,
  )
  assert.equal(JSON.parse(run('node', ['render.mjs'], app).trim().split('\n').at(-1)!), { frames: 25 })
  assert.is((await probe(join(app, 'out.mp4'))).streams[0]!.width, 512)
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  assert.is(run(join(app, 'node_modules/.bin/reelforge'), ['--version'], app).trim(), pkg.version)
  const bin = run(join(app, 'node_modules/.bin/reelforge'), ['validate', join(root, 'examples/hello.json')], app)
  assert.match(bin, /^valid: /)
  // The installed bin renders, as a user's `npx reelforge render` would: a tiny edit (1 s, 320x180, 12 fps).
  writeFileSync(
    join(app, 'tiny.json'),
    JSON.stringify({
      timeline: { tracks: [{ clips: [{ asset: { type: 'title', text: 'bin' }, start: 0, length: 1 }] }] },
      output: { format: 'mp4', size: { width: 320, height: 180 }, fps: 12 },
    }),
  )
  run(join(app, 'node_modules/.bin/reelforge'), ['render', 'tiny.json', '-o', 'bin.mp4'], app)
  const video = (await probe(join(app, 'bin.mp4'))).streams.find((s) => s.type === 'video')!
  assert.equal([video.width, video.height, video.frames], [320, 180, 12], 'the bin wrote the edit: its size and every frame')
  for (const name of maps) {
    const map = JSON.parse(readFileSync(join(app, 'node_modules/reelforge', name), 'utf8'))
    assert.is(map.sourcesContent?.length, map.sources.length, `${name} carries its own sources`)
  }
  assert.ok(readdirSync(join(app, 'node_modules/reelforge')).includes('LICENSE'))
  // Deleted now, not at exit: on a loaded machine the installed app takes longer than the runner's 30 s to remove,
  // which it reads as a test leaving a handle open.
  rmSync(app, { recursive: true, force: true })
})
test.run()
