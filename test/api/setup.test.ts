import { spawnSync } from 'node:child_process'
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { tempDir } from '../helpers/media.js'

// scripts/setup.sh (`npm run demo`, `npm test`) installs npm dependencies only when they are not already installed
// as package-lock.json says — whoever ran the install. Each case runs the real script in a copy of the project's
// manifest with an `npm` on PATH that only records being called, so nothing is installed for real.

const root = new URL('../..', import.meta.url).pathname
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'))

/** A project folder whose node_modules is what `npm ci` leaves (npm's own record of the tree, gl's addon built). */
function project(o: { lock?: boolean; hidden?: object | null; addon?: boolean } = {}) {
  const dir = tempDir('reelforge-setup-')
  mkdirSync(join(dir, 'scripts'))
  copyFileSync(join(root, 'scripts/setup.sh'), join(dir, 'scripts/setup.sh'))
  copyFileSync(join(root, 'package.json'), join(dir, 'package.json'))
  if (o.lock !== false) copyFileSync(join(root, 'package-lock.json'), join(dir, 'package-lock.json'))
  mkdirSync(join(dir, 'node_modules/gl/build/Release'), { recursive: true })
  if (o.addon !== false) writeFileSync(join(dir, 'node_modules/gl/build/Release/webgl.node'), '')
  // npm ci's record: every package it installed — all of the lock's but the optional ones for other platforms.
  const installed = Object.fromEntries(Object.entries(lock.packages as Record<string, { optional?: boolean }>).filter(([k, v]) => k && !v.optional))
  const hidden = o.hidden === undefined ? { name: lock.name, lockfileVersion: lock.lockfileVersion, packages: installed } : o.hidden
  if (hidden) writeFileSync(join(dir, 'node_modules/.package-lock.json'), JSON.stringify(hidden))
  // The dashboard bundle, newer than its sources: that step has nothing to do either.
  mkdirSync(join(dir, 'dist/dashboard'), { recursive: true })
  for (const src of ['adapters/dashboard/ui', 'service']) mkdirSync(join(dir, src), { recursive: true })
  for (const f of ['service/vocabulary.ts', 'service/api-types.ts', 'scripts/build-dashboard.mjs']) writeFileSync(join(dir, f), '')
  writeFileSync(join(dir, 'dist/dashboard/app.js'), '')
  const bin = join(dir, 'fake-bin')
  mkdirSync(bin)
  writeFileSync(join(bin, 'npm'), `#!/bin/sh\necho "$@" >> "${join(dir, 'npm-called')}"\n`)
  chmodSync(join(bin, 'npm'), 0o755)
  return { dir, bin }
}

function setup(p: { dir: string; bin: string }) {
  const res = spawnSync('bash', ['scripts/setup.sh'], { cwd: p.dir, encoding: 'utf8', env: { ...process.env, PATH: `${p.bin}:${process.env.PATH}` } })
  assert.is(res.status, 0, res.stderr)
  const calls = existsSync(join(p.dir, 'npm-called')) ? readFileSync(join(p.dir, 'npm-called'), 'utf8').trim() : ''
  rmSync(p.dir, { recursive: true, force: true })
  return { ...res, npm: calls }
}

test('a complete install that setup.sh did not run (a plain `npm ci`) is recognised: no second npm ci', () => {
  const res = setup(project())
  assert.is(res.npm, '', `npm was called: ${res.npm}`)
  assert.not.match(res.stdout, /npm ci/)
})

test('npm ci runs when the install is missing, stale against the lock, or gl was not built', () => {
  assert.match(setup(project({ hidden: null })).npm, /^ci\b/, 'no node_modules record')
  const stale = structuredClone(lock) as { packages: Record<string, { version: string }> }
  stale.packages['node_modules/valibot']!.version = '0.0.1'
  assert.match(setup(project({ hidden: stale })).npm, /^ci\b/, 'a package at another version than the lock')
  const partial = structuredClone(lock) as { packages: Record<string, unknown> }
  delete partial.packages['node_modules/h3']
  assert.match(setup(project({ hidden: partial })).npm, /^ci\b/, 'a package missing')
  assert.match(setup(project({ addon: false })).npm, /^ci\b/, "gl's addon not built (npm ci --ignore-scripts)")
})

test('installed as a package (no package-lock.json beside it), setup.sh installs no npm dependencies', () => {
  assert.is(setup(project({ lock: false, hidden: null })).npm, '')
})

test('every dependency with an install script is in allowScripts (npm 11 warns of the others, npm 12 skips them)', () => {
  const scripted = Object.entries(lock.packages as Record<string, { hasInstallScript?: boolean }>)
    .filter(([, v]) => v.hasInstallScript)
    .map(([k]) => k.slice(k.lastIndexOf('node_modules/') + 13))
  assert.ok(scripted.includes('gl'), 'the lock marks install scripts')
  assert.equal(
    scripted.filter((name) => !(name in pkg.allowScripts)),
    [],
  )
})

test.run()
