import { Queue, Worker } from 'bullmq'
import { Redis } from 'ioredis'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { RENDER_QUEUE } from '../../service/queue/bull-queue.js'
import { redisDb } from '../helpers/redis.js'
import { testService, titleEdit, type TestService } from '../helpers/service.js'

// On BullMQ the service sets each render's priority: sandbox renders never go ahead of live ones, and an
// account's k-th waiting job queues with every other account's k-th (round-robin as of submission). A plain
// BullMQ worker with concurrency 1 takes the jobs; the order it gets them is what reelforge workers get.

/** A Redis database of this file's own, so other suites flushing theirs never meet these queues. */
const redisUrl = redisDb(9)

async function submit(svc: TestService, key: string, n: number): Promise<string[]> {
  const ids: string[] = []
  for (let i = 0; i < n; i++) ids.push((await svc.call('POST', '/v1/render', { key, body: titleEdit(1) })).body.jobId)
  return ids
}

const test = suite('BullMQ: live before sandbox, round-robin over accounts')
test('6 sandbox jobs, then A submits 4 and B 1: the worker takes A1, B1, A2…A4, then the sandbox jobs', async () => {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: null })
  await redis.flushdb()
  const svc = await testService({ start: true, config: { redisUrl } })
  const queue = new Queue(RENDER_QUEUE, { connection: redis })
  const workerConnection = new Redis(redisUrl, { maxRetriesPerRequest: null })
  let worker: Worker | undefined
  try {
    const { key: b, record } = await svc.keys.create()
    await svc.wallet.deposit(record.accountId, 1000)
    const sandbox = await submit(svc, svc.sandbox, 6)
    const a = await submit(svc, svc.live, 4)
    const [b1] = await submit(svc, b, 1)
    // Adds happen in the background: wait until all 11 wait in Redis, then let one worker take them in turn.
    for (const until = Date.now() + 15_000; Date.now() < until; await new Promise((r) => setTimeout(r, 50))) {
      const counts = await queue.getJobCounts('wait', 'prioritized')
      if (counts.wait! + counts.prioritized! === 11) break
    }
    const order: string[] = []
    worker = new Worker(RENDER_QUEUE, async (job) => void order.push(job.id!), { connection: workerConnection, concurrency: 1 })
    for (const until = Date.now() + 15_000; order.length < 11 && Date.now() < until; ) await new Promise((r) => setTimeout(r, 50))
    assert.equal(order, [a[0], b1, a[1], a[2], a[3], ...sandbox])
  } finally {
    await worker?.close()
    await queue.close()
    await svc.close()
    workerConnection.disconnect()
    redis.disconnect()
  }
})
test.run()
