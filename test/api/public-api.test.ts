import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { exportedNames } from '../helpers/exports.js'
import { REDIS_URL } from '../helpers/redis.js'
import { runnable } from '../helpers/serve-child.js'

const root = new URL('../..', import.meta.url).pathname

/** The names docs/library.md's "Public API" lists under the line that introduces `from '<entry>'`. */
function documented(entry: string): string[] {
  const doc = readFileSync(`${root}docs/library.md`, 'utf8')
  const start = doc.indexOf('## Public API')
  assert.ok(start >= 0, 'docs/library.md has no "Public API" section')
  const end = doc.indexOf('\n## ', start + 1)
  const section = doc.slice(start, end < 0 ? undefined : end)
  const blocks = section.split(/\n(?=`import … from ')/)
  const block = blocks.find((b) => b.startsWith(`\`import … from '${entry}'\``))
  assert.ok(block, `docs/library.md lists no block for ${entry}`)
  const items = block!
    .split('\n')
    .filter((l) => l.startsWith('- '))
    .join(' ')
  return [...new Set([...items.matchAll(/`([A-Za-z_][A-Za-z0-9_]*)`/g)].map((m) => m[1]!))].sort()
}

test("'reelforge' exports exactly what docs/library.md lists", () => {
  assert.equal(exportedNames(`${root}index.ts`), documented('reelforge'))
})

test("'reelforge/kit' exports exactly what docs/library.md lists", () => {
  assert.equal(exportedNames(`${root}kit.ts`), documented('reelforge/kit'))
})

test('internal helpers stay internal', () => {
  const names = new Set([...exportedNames(`${root}index.ts`), ...exportedNames(`${root}kit.ts`)])
  for (const internal of ['lastLines', 'ensureDisplay', 'displayLost', 'crashSite', 'compileTrack', 'removePartial', 'isLocalSource'])
    assert.not.ok(names.has(internal), internal)
})

test('package.json maps both entries to the built files', () => {
  const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8'))
  assert.equal(pkg.exports['.'].default, './dist/index.js')
  assert.equal(pkg.exports['./kit'].default, './dist/kit.js')
})

/**
 * Runs a module script in a fresh node (this process may hold what is measured already) and hands back the last
 * line it printed. Compiled where the suite runs from the compiled tree (scripts/compile-tests.mjs), else the
 * sources through tsx: `entry` says which.
 */
function lastLineOf(script: string, entry: string): string {
  const loader = entry.endsWith('.ts') ? ['--import', 'tsx'] : []
  const res = spawnSync(process.execPath, [...loader, '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' })
  assert.is(res.status, 0, res.stderr)
  return res.stdout.trim().split('\n').at(-1)!
}

test("importing 'reelforge' does not load the service", () => {
  // The service's composition root loads the reflect-metadata polyfill first of all, so Reflect.getMetadata
  // appears exactly when the service is loaded.
  const loads = (entry: string) => lastLineOf(`await import('${entry}'); console.log(typeof Reflect.getMetadata)`, entry) === 'function'
  assert.not.ok(loads(runnable(`${root}index.ts`)), 'reelforge loaded the service')
  assert.ok(loads(runnable(`${root}adapters/http/create-service.ts`)), 'the probe cannot tell')
})

test("importing 'reelforge' or its kit does not load undici; a vendor client or webhook sender loads it when made", () => {
  // undici (110 modules, ~0.2 CPU-s) serves vendor requests and webhooks only: a render, a CLI run and every render
  // process start without it. CommonJS, so what loaded it shows in require's cache.
  const entry = runnable(`${root}index.ts`)
  const script = `import { createRequire } from 'node:module'
    const cache = createRequire(import.meta.url).cache
    const undici = () => Object.keys(cache).some((k) => k.includes('/node_modules/undici/'))
    await import('${entry}')
    const kit = await import('${runnable(`${root}kit.ts`)}')
    const before = undici()
    kit.guardedAgent({}).close()
    console.log(JSON.stringify([before, undici()]))`
  assert.equal(JSON.parse(lastLineOf(script, entry)), [false, true])
})

test('a service loads BullMQ, ioredis, the AWS SDK and undici only where its config uses them', () => {
  // ~0.9 CPU-s of imports at every start (a test file, `reelforge serve`) for a service on SQLite and local files
  // that uses none of them. Which packages are loaded shows in require's cache (all four are CommonJS).
  const entry = runnable(`${root}service-entry.ts`)
  const services = {
    plain: {},
    redis: { redisUrl: REDIS_URL },
    s3: { s3: { bucket: 'b', region: 'us-east-1', endpoint: 'http://127.0.0.1:9', accessKeyId: 'k', secretAccessKey: 's' } },
  }
  const script = (config: object) => `import { createRequire } from 'node:module'
    import { mkdtempSync } from 'node:fs'
    const cache = createRequire(import.meta.url).cache
    const { createService, defaultConfig } = await import('${entry}')
    const dataDir = mkdtempSync('/tmp/reelforge-loads-')
    const service = await createService(defaultConfig({ dataDir, isolateRenders: false, ...${JSON.stringify(config)} }))
    const loaded = ['bullmq', 'ioredis', '@aws-sdk/client-s3', 'undici'].filter((p) => Object.keys(cache).some((k) => k.includes('/node_modules/' + p + '/')))
    await service.close()
    console.log(JSON.stringify(loaded))`
  assert.equal(JSON.parse(lastLineOf(script(services.plain), entry)), [], 'SQLite, local files, no Redis')
  assert.equal(JSON.parse(lastLineOf(script(services.redis), entry)), ['bullmq', 'ioredis'], 'the probe can tell')
  assert.equal(JSON.parse(lastLineOf(script(services.s3), entry)), ['@aws-sdk/client-s3'])
})

test.run()
