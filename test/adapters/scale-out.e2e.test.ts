import type { ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { Queue } from 'bullmq'
import pg from 'pg'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createService } from '../../adapters/http/create-service.js'
import { defaultConfig } from '../../service/config.js'
import { groupAlive, groupPids } from '../../service/isolation/process-group.js'
import { RENDER_QUEUE, redisConnection } from '../../service/queue/bull-queue.js'
import { tempDir } from '../helpers/media.js'
import { freshPostgres } from '../helpers/postgres.js'
import { pgrep, running, sleep, until } from '../helpers/processes.js'
import { startReceiver } from '../helpers/receiver.js'
import { freshRedis, REDIS_URL } from '../helpers/redis.js'
import { s3Env, startS3 } from '../helpers/s3.js'
import { runnable, api, freePort, startCli, stop, waitStatus } from '../helpers/serve-child.js'

// Scaled out as docs/scaling.md says: two `reelforge serve` front ends and two `reelforge worker`s on one
// PostgreSQL, one Redis (BullMQ) and one bucket (s3rver). Every event of a job reaches each receiver once with one
// `webhook-id`; a job keeps the split decided when it was submitted, whoever re-queues it; a cancel ends a worker's
// render process and everything it started within 2 s.

type Proc = Awaited<ReturnType<typeof startCli>>
const RUNAWAY = runnable(fileURLToPath(new URL('../helpers/runaway-plugin.ts', import.meta.url)))
const small = (text: string, seconds = 1) => ({
  timeline: { background: '#000000', tracks: [{ clips: [{ asset: { type: 'title', text }, start: 0, length: seconds }] }] },
  output: { format: 'mp4', size: { width: 160, height: 90 }, fps: 12 },
})
const EVENTS = ['render.queued', 'render.processing', 'render.complete'] as const

const ctx = {} as {
  env: Record<string, string>
  db: pg.Client
  rx: Awaited<ReturnType<typeof startReceiver>>
  s3: Awaited<ReturnType<typeof startS3>>
  ports: number[]
  /** [0] started with `--segments 2`, [1] with `--segments 1`. */
  fronts: ChildProcess[]
  workers: Proc[]
  keys: string[]
}
const test = suite('scaled out: two front ends, two workers, PostgreSQL, Redis and S3', ctx)

// uvu says nothing of a failing hook's error: it is printed here.
test.before(async () => setUp().catch((e) => (console.error(e), Promise.reject(e))))
async function setUp() {
  const t0 = Date.now()
  await freshRedis()
  const database = await freshPostgres()
  ctx.s3 = await startS3()
  ctx.rx = await startReceiver()
  ctx.env = {
    REELFORGE_DATABASE_URL: database,
    REELFORGE_REDIS_URL: REDIS_URL,
    ...s3Env(ctx.s3.config),
    REELFORGE_ALLOW_NETWORKS: '127.0.0.0/8',
    REELFORGE_PLUGINS: RUNAWAY,
    REELFORGE_LOCK_MS: '3000',
    REELFORGE_RENDER_MEMORY_MB: '700',
  }
  // Two funded accounts, each with a global webhook for every render event.
  const admin = await createService(
    defaultConfig({ dataDir: tempDir('reelforge-scale-'), databaseUrl: database, s3: ctx.s3.config, network: { allow: ['127.0.0.0/8'] } }),
  )
  ctx.keys = []
  for (const name of ['a', 'b']) {
    const { key, record } = await admin.keys.create()
    await admin.wallet.deposit(record.accountId, 10_000)
    await admin.webhooks.set(record.accountId, { url: `${ctx.rx.url}/hook-${name}`, events: [...EVENTS, 'render.failed' as const], secret: 's'.repeat(24) })
    ctx.keys.push(key)
  }
  await admin.close()
  ctx.db = new pg.Client({ connectionString: database })
  await ctx.db.connect()
  ctx.ports = [await freePort(), await freePort()]
  const front = (n: number, segments: number) =>
    startCli(
      ['serve', '--port', String(ctx.ports[n]), '--data', tempDir('reelforge-scale-f-'), '--segments', String(segments)],
      ctx.env,
      /listening on/,
      30_000,
    )
  ctx.fronts = (await Promise.all([front(0, 2), front(1, 1)])).map((f) => f.child)
  const worker = (n: number) => startCli(['worker', '--data', tempDir(`reelforge-scale-w${n}-`)], ctx.env, /reelforge worker \d+ ready/, 30_000)
  ctx.workers = await Promise.all([worker(1), worker(2)])
  console.log(`  started in ${((Date.now() - t0) / 1000).toFixed(1)} s`)
}

test.after(async () => {
  await Promise.all([...(ctx.fronts ?? []).map((f) => stop(f, 'SIGKILL')), ...(ctx.workers ?? []).map((w) => stop(w.child, 'SIGKILL'))])
  await ctx.db?.end()
  await ctx.rx?.close()
  await ctx.s3?.close()
})

const renderChildrenOf = (workers: Proc[]) => workers.flatMap((w) => pgrep('render-child', w.child.pid))

test("a cancel reaches the worker's render process: it and everything it started end within 2 s", async () => {
  const t0 = Date.now()
  // The workers are fresh: no render process yet, so the one that appears renders this job.
  assert.equal(renderChildrenOf(ctx.workers), [], 'render processes start on demand')
  const edit = { ...small('spin'), timeline: { tracks: [{ clips: [{ asset: { type: 'busy-loop', seconds: 60 }, start: 0, length: 1 }] }] } }
  const { jobId } = (await api(ctx.ports[1]!, ctx.keys[0]!, 'POST', '/v1/render', edit)).body
  const [child] = await until('the render process of the job', () => renderChildrenOf(ctx.workers), 30_000)
  const log = () => ctx.workers.map((w) => w.log()).join('\n')
  // In its one long synchronous step: only a kill ends it.
  await until('the render to spin', () => log().includes('busy-loop: spinning'), 30_000)
  const group = await groupPids(child!)
  const asked = Date.now()
  const cancelled = await api(ctx.ports[0]!, ctx.keys[0]!, 'DELETE', `/v1/render/${jobId}`)
  assert.equal([cancelled.status, cancelled.body.status, cancelled.body.error], [200, 'FAILED', 'cancelled'])
  await until('the render process group to be gone', () => !groupAlive(child!), 2000)
  const took = Date.now() - asked
  for (const pid of group) assert.not.ok(running(pid), `process ${pid} of the cancelled render is still alive`)
  assert.ok(took <= 2000, `gone after ${took} ms`)
  await until('the worker to report the cancel', () => log().includes(`failed ${jobId}: cancelled`), 5000)
  console.log(`  render process gone ${took} ms after the cancel (${((Date.now() - t0) / 1000).toFixed(1)} s)`)
})

test("past a worker's memory ceiling (REELFORGE_RENDER_MEMORY_MB) → FAILED E_MEMORY_LIMIT naming the limit, as on the server", async () => {
  const t0 = Date.now()
  const edit = { ...small('hog'), timeline: { tracks: [{ clips: [{ asset: { type: 'memory-hog', mb: 1200 }, start: 0, length: 1 }] }] } }
  const { jobId } = (await api(ctx.ports[1]!, ctx.keys[0]!, 'POST', '/v1/render', edit)).body
  const failed = await waitStatus(ctx.ports[1]!, ctx.keys[0]!, jobId, ['COMPLETE', 'FAILED'], 60_000)
  assert.is(failed.status, 'FAILED')
  assert.match(
    failed.error,
    /^E_MEMORY_LIMIT: the render used \d+ MB of memory while \w+, more than the limit of 700 MB \(limits\.renderMemoryMb, env REELFORGE_RENDER_MEMORY_MB\)/,
  )
  console.log(`  ${((Date.now() - t0) / 1000).toFixed(1)} s`)
})

test('20 renders over two accounts through both front ends: each event delivered once per receiver, one id each; charged once', async () => {
  const t0 = Date.now()
  const ids: string[] = []
  for (let i = 0; i < 20; i++) {
    const r = await api(ctx.ports[i % 2]!, ctx.keys[Math.floor(i / 2) % 2]!, 'POST', '/v1/render', { ...small(`job ${i}`), callback: `${ctx.rx.url}/cb` })
    assert.is(r.status, 201, JSON.stringify(r.body))
    ids.push(r.body.jobId)
  }
  for (const [i, id] of ids.entries())
    assert.is((await waitStatus(ctx.ports[i % 2]!, ctx.keys[Math.floor(i / 2) % 2]!, id, ['COMPLETE', 'FAILED'])).status, 'COMPLETE')
  const ours = () => ctx.rx.received.filter((r) => ids.includes(r.json?.data?.id))
  // Each job: three events, each to its callback and to its account's global webhook.
  await until('every delivery', () => ours().length >= ids.length * EVENTS.length * 2, 30_000)
  await sleep(2000) // a second copy would come within milliseconds of the first; these are long enough to see it
  // One delivery per event and receiver. `render.processing` is an event of each attempt: a render a worker started
  // again (a stalled lock) is processing again, and says so with its attempt — as often as the workers started it.
  const seen = new Map<string, string[]>()
  for (const r of ours()) {
    const at = `${r.json.data.id} ${r.json.event} ${r.path} ${r.json.data.attempt ?? ''}`
    seen.set(at, [...(seen.get(at) ?? []), `${r.headers['webhook-id']} ${r.body}`])
  }
  const twice = [...seen].filter(([, got]) => got.length !== 1)
  assert.equal(twice, [], 'an event reached a receiver more than once')
  const logs = ctx.workers.map((w) => w.log()).join('\n')
  for (const [i, id] of ids.entries()) {
    const starts = logs.split('\n').filter((l) => l.startsWith(`rendering ${id} (attempt `)).length
    for (const path of ['/cb', `/hook-${'ab'[Math.floor(i / 2) % 2]}`])
      for (const event of EVENTS) {
        const got = [...seen.keys()].filter((k) => k.startsWith(`${id} ${event} ${path} `)).length
        assert.is(got, event === 'render.processing' ? starts : 1, `${id} ${event} ${path}: ${got} events (${starts} starts)`)
      }
  }
  const webhookIds = new Set(ours().map((r) => r.headers['webhook-id']))
  assert.is(webhookIds.size, ours().length, 'one id per delivery')
  const charges = await ctx.db.query(`SELECT job_id, COUNT(*)::int AS n FROM wallet_ledger WHERE kind = 'charge' AND job_id = ANY($1) GROUP BY job_id`, [ids])
  assert.is(charges.rows.length, ids.length, 'every render charged')
  assert.ok(
    charges.rows.every((c) => c.n === 1),
    'none charged twice',
  )
  for (const key of ctx.keys) assert.is((await api(ctx.ports[0]!, key, 'GET', '/v1/wallet')).body.held, 0, 'nothing left on hold')
  console.log(`  ${ours().length} deliveries for ${ids.length} renders (${((Date.now() - t0) / 1000).toFixed(1)} s)`)
})

test('a job submitted with --segments 2 and re-queued by a front end started with --segments 1 still renders in 2 segments', async () => {
  const t0 = Date.now()
  const connection = redisConnection(REDIS_URL)
  const queue = new Queue(RENDER_QUEUE, { connection })
  try {
    // Nothing takes it meanwhile: the workers wait while the queue is paused.
    await queue.pause()
    const { jobId } = (await api(ctx.ports[0]!, ctx.keys[1]!, 'POST', '/v1/render', small('split', 3))).body
    await until('the job in BullMQ', () => queue.getJob(jobId))
    // Its front end goes, and Redis loses the job: the other front end finds it in the database and queues it again.
    await stop(ctx.fronts[0]!)
    await queue.remove(jobId)
    await until('the job queued again by the other front end', () => queue.getJob(jobId), 15_000)
    await queue.resume()
    const done = await waitStatus(ctx.ports[1]!, ctx.keys[1]!, jobId, ['COMPLETE', 'FAILED'])
    assert.is(done.status, 'COMPLETE', done.error)
    const log = ctx.workers.map((w) => w.log()).join('\n')
    assert.match(log, new RegExp(`rendering ${jobId} \\(attempt 1, in 2 segments over the workers\\)`))
    assert.is(log.match(new RegExp(`rendered segment \\d of ${jobId}`, 'g'))?.length, 2, 'two pieces')
    const stored = await ctx.db.query('SELECT segments FROM jobs WHERE id = $1', [jobId])
    assert.is(stored.rows[0]?.segments, 2, 'the split is stored with the job')
  } finally {
    await queue.close()
    connection.disconnect()
  }
  console.log(`  ${((Date.now() - t0) / 1000).toFixed(1)} s`)
})

test.run()
