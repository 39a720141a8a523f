import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { Queue } from 'bullmq'
import { Redis } from 'ioredis'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createRenderer } from '../../index.js'
import { SEGMENT_QUEUE } from '../../service/queue/bull-segments.js'
import { startBullWorker } from '../../service/queue/bull-worker.js'
import { filesDir, workDir } from '../../service/config.js'
import { LocalStorage } from '../../service/storage/storage.js'
import { lavfi, tempDir } from '../helpers/media.js'
import { redisDb } from '../helpers/redis.js'
import { LOOPBACK, testService, type TestService } from '../helpers/service.js'

// BullMQ workers have no database: once a render is planned they ask the service, over the `reelforge-hold-planned`
// queue, to hold its real price — and a render the wallet cannot pay fails before its first frame.

/** A Redis database of this file's own, so other suites flushing theirs never meet these queues. */
const redisUrl = redisDb(7)
const dir = tempDir('reelforge-bull-hold-planned-')
const output = { format: 'mp4', size: { width: 64, height: 36 }, fps: 12 }
let short = ''
/** 3 × 21 s of `start: "auto"` clips: 63 s, 2 credits at preview; the estimate at submission holds 1. */
const autoEdit = () => ({
  timeline: { tracks: [{ clips: [1, 2, 3].map(() => ({ asset: { type: 'video', src: short }, start: 'auto', length: 21 })) }] },
  output,
})

/** A service on BullMQ and one in-process worker sharing its storage; both closed however the test ends. */
async function withBull(config: { segments?: number }, fn: (svc: TestService) => Promise<void>) {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 })
  await redis.flushdb()
  redis.disconnect()
  const svc = await testService({ start: true, credits: 0, config: { redisUrl, ...config, files: { allow: [dir] } } })
  const renderer = createRenderer({ cacheDir: join(dir, 'cache'), network: LOOPBACK, files: { allow: [dir] } })
  const worker = await startBullWorker({
    redisUrl,
    renderer,
    storage: new LocalStorage(filesDir(svc.config)),
    workRoot: workDir(svc.config),
    cacheDir: join(dir, 'cache'),
    concurrency: 1,
    lockMs: 10_000,
    log: () => {},
  })
  try {
    await fn(svc)
  } finally {
    await worker.close(true)
    await svc.close()
  }
}
async function account(svc: TestService, credits: number) {
  const { key, record } = await svc.keys.create()
  await svc.wallet.deposit(record.accountId, credits)
  return key
}

const holdPlanned = suite("BullMQ: a planned render's real price is held through the service")
holdPlanned.before(async () => {
  short = await lavfi('testsrc2=size=64x36:rate=12:duration=1', join(dir, 'short.mp4'), ['-c:v', 'libx264', '-pix_fmt', 'yuv420p'])
})

holdPlanned('a wallet holding exactly the price → COMPLETE, charged in full; one credit short → FAILED before rendering, nothing charged', () =>
  withBull({}, async (svc) => {
    const paid = await account(svc, 2)
    const poor = await account(svc, 1)
    const ok = (await svc.call('POST', '/v1/render', { key: paid, body: autoEdit() })).body.jobId
    const refused = (await svc.call('POST', '/v1/render', { key: poor, body: autoEdit() })).body.jobId
    const done = await svc.waitFor(ok, ['COMPLETE', 'FAILED'], paid, 120_000)
    assert.is(done.status, 'COMPLETE', done.error)
    assert.is(done.credits_used, 2)
    assert.equal((await svc.call('GET', '/v1/wallet', { key: paid })).body, { balance: 0, held: 0, available: 0, low_balance_threshold: 100 })
    const failed = await svc.waitFor(refused, ['COMPLETE', 'FAILED'], poor, 120_000)
    assert.is(failed.status, 'FAILED')
    assert.match(failed.error, /^E_INSUFFICIENT_CREDITS: the render lasts 63\.0 s, which costs 2 credits/)
    assert.is(failed.progress, 0, 'never reached its rendering stage')
    assert.not.ok(existsSync(join(filesDir(svc.config), refused)), 'nothing was stored')
    assert.equal((await svc.call('GET', '/v1/wallet', { key: poor })).body, { balance: 1, held: 0, available: 1, low_balance_threshold: 100 })
    const kinds = (await svc.call('GET', '/v1/wallet/ledger', { key: poor })).body.entries.map((e: { kind: string }) => e.kind)
    assert.equal(kinds, ['release', 'hold', 'deposit'], 'no charge')
  }),
)

holdPlanned('split over the workers (segments): the coordinator asks once, before any piece is queued', () =>
  withBull({ segments: 2 }, async (svc) => {
    const poor = await account(svc, 1)
    const refused = (await svc.call('POST', '/v1/render', { key: poor, body: autoEdit() })).body.jobId
    const failed = await svc.waitFor(refused, ['COMPLETE', 'FAILED'], poor, 120_000)
    assert.is(failed.status, 'FAILED')
    assert.match(failed.error, /^E_INSUFFICIENT_CREDITS: /)
    const connection = new Redis(redisUrl, { maxRetriesPerRequest: null })
    const pieces = new Queue(SEGMENT_QUEUE, { connection })
    const queued = Object.values(await pieces.getJobCounts()).reduce((a, b) => a + b, 0)
    await pieces.close()
    connection.disconnect()
    assert.is(queued, 0, 'no piece was queued')
    assert.equal((await svc.call('GET', '/v1/wallet', { key: poor })).body, { balance: 1, held: 0, available: 1, low_balance_threshold: 100 })
  }),
)

holdPlanned.run()
