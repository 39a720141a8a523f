import { existsSync, lstatSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
// @ts-expect-error: plain JavaScript, no declarations
import { compileTests } from '../../scripts/compile-tests.mjs'
// @ts-expect-error: plain JavaScript, no declarations
import { passes, SQLITE_ONLY } from '../../scripts/test-lanes.mjs'
// @ts-expect-error: plain JavaScript, no declarations
import { schedule } from '../../scripts/test-schedule.mjs'
import { tempDir } from '../helpers/media.js'

type Run = { key: string; serial: boolean }
const run = (key: string, serial = false): Run => ({ key, serial })
const costs = {
  heavy: { ms: 100_000, cpu: 100 },
  heavy2: { ms: 90_000, cpu: 90 },
  sleepy: { ms: 80_000, cpu: 8 },
  sleepy2: { ms: 70_000, cpu: 7 },
  sleepy3: { ms: 60_000, cpu: 6 },
  sleepy4: { ms: 50_000, cpu: 5 },
  busy: { ms: 10_000, cpu: 15 },
}

const order = suite('the test schedule')
order('a serial file starts first and alone; then the longest first on `jobs` cores', () => {
  const plan = schedule([run('heavy'), run('sleepy'), run('pack', true)], costs, { jobs: 2, long: () => false })
  const first = plan.next([])
  assert.is(first.key, 'pack')
  assert.is(plan.next([first]), undefined, 'nothing beside a serial file')
  const a = plan.next([])
  const b = plan.next([a])
  assert.equal([a.key, b.key], ['heavy', 'sleepy'])
})
order('beyond `jobs`, a file starts only while the running ones leave room for its load, two such at most', () => {
  const plan = schedule([run('heavy'), run('heavy2'), run('busy'), run('sleepy')], costs, { jobs: 2, long: () => false })
  const running = [plan.next([])]
  running.push(plan.next(running))
  assert.equal(
    running.map((r) => r.key),
    ['heavy', 'heavy2'],
  )
  const third = plan.next(running)
  assert.is(third?.key, 'sleepy', 'two cores in use: a file that mostly waits (0.1 core) joins')
  running.push(third)
  assert.is(plan.next(running), undefined, 'a 1.5-core file does not')
  running.splice(0, 1)
  assert.is(plan.next(running)?.key, 'busy', 'it starts when a busy file ends')

  const light = schedule([run('heavy'), run('sleepy'), run('sleepy2'), run('sleepy3'), run('sleepy4')], costs, { jobs: 2, long: () => false })
  const all = [light.next([])]
  for (let r = light.next(all); r; r = light.next(all)) all.push(r)
  assert.is(all.length, 4, 'never more than jobs + 2, however light')
  assert.is(light.queue.length, 1)
})
order('a file never measured counts as one core and as long as a minute (ten for the known long ones)', () => {
  const plan = schedule([run('new'), run('new-long'), run('sleepy')], costs, { jobs: 2, long: (r: Run) => r.key === 'new-long' })
  assert.equal([plan.queue[0].key, plan.queue[1].key], ['new-long', 'sleepy'])
  assert.is(plan.cores(run('new')), 1)
})
order.run()

const lanes = suite('the two stores')
const root = join(import.meta.dirname, '..', '..')
lanes('the whole suite runs every file on SQLite and the /v1 files again on PostgreSQL, but for SQLITE_ONLY', () => {
  const files = ['test/core/a.test.ts', 'test/adapters/http/v1-x.test.ts', SQLITE_ONLY[0]]
  const runs = passes(files, true) as { file: string; pass: string; env: Record<string, string> }[]
  assert.equal(
    runs.map((r) => `${r.pass} ${r.file}`),
    [...files.map((f) => `sqlite ${f}`), 'postgres test/adapters/http/v1-x.test.ts'],
  )
  assert.equal(runs.at(-1)!.env, { REELFORGE_TEST_STORE: 'postgres' })
  assert.ok(
    (passes(files, false) as { pass: string }[]).every((r) => r.pass === 'sqlite'),
    'a named selection runs on SQLite only',
  )
})
lanes('SQLITE_ONLY names /v1 files that exist (a renamed one would rejoin the PostgreSQL pass unnoticed)', () => {
  assert.ok(SQLITE_ONLY.length > 0)
  for (const f of SQLITE_ONLY as string[]) assert.ok(f.startsWith('test/adapters/http/') && existsSync(join(root, f)), f)
})
lanes.run()

const tree = suite('the compiled tree')
tree('every TypeScript file has its JavaScript twin; sources, fixtures and node_modules are the real ones; a deleted source leaves nothing', async () => {
  const repo = tempDir('reelforge-tree-')
  mkdirSync(join(repo, 'core'))
  mkdirSync(join(repo, 'test', 'fixtures'), { recursive: true })
  mkdirSync(join(repo, 'node_modules'))
  writeFileSync(join(repo, 'tsconfig.json'), JSON.stringify({ compilerOptions: { target: 'ES2022', experimentalDecorators: true } }))
  writeFileSync(join(repo, 'core', 'a.ts'), 'export const a: number = 1\n')
  writeFileSync(join(repo, 'core', 'gone.ts'), 'export {}\n')
  writeFileSync(join(repo, 'test', 'fixtures', 'x.json'), '{}')
  writeFileSync(join(repo, 'test', 'a.test.ts'), "import { a } from '../core/a.js'\nexport const b = a + 1\n")
  await compileTests(repo)
  const { rmSync } = await import('node:fs')
  rmSync(join(repo, 'core', 'gone.ts'))
  const root = await compileTests(repo)
  assert.is((await import(join(root, 'test', 'a.test.js'))).b, 2)
  assert.is(realpathSync(join(root, 'core', 'a.ts')), realpathSync(join(repo, 'core', 'a.ts')))
  assert.ok(lstatSync(join(root, 'test', 'fixtures')).isSymbolicLink(), 'a folder without TypeScript is linked whole')
  assert.ok(lstatSync(join(root, 'node_modules')).isSymbolicLink())
  assert.not.ok(existsSync(join(root, 'core', 'gone.js')))
  assert.match(readFileSync(join(root, 'core', 'a.js'), 'utf8'), /const a = 1;/, 'types erased')
})
tree.run()
