import type { ChildProcess } from 'node:child_process'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { tempDir } from '../helpers/media.js'
import { freshRedis, REDIS_URL } from '../helpers/redis.js'
import { api, createKey, freePort, serve, startCli, stop, waitStatus } from '../helpers/serve-child.js'
import { titleEdit } from '../helpers/service.js'

// `reelforge serve --redis` and two `reelforge worker` processes on a real Redis: BullMQ hands out the
// renders; a worker killed mid-render loses its job to the other through BullMQ's stalled-job check.

type WorkerProc = Awaited<ReturnType<typeof startCli>>
const startWorker = (data: string) =>
  startCli(['worker', '--redis', REDIS_URL, '--data', data], { REELFORGE_LOCK_MS: '3000' }, /reelforge worker \d+ ready/, 15_000)
const rendered = (w: WorkerProc, id: string) =>
  w
    .log()
    .split('\n')
    .filter((l) => l.startsWith(`rendering ${id} `)).length

const ctx = {} as { data: string; port: number; server: ChildProcess; workers: WorkerProc[]; key: string }
const test = suite('BullMQ: a server and two workers', ctx)
test.before(async () => {
  await freshRedis()
  ctx.data = tempDir('reelforge-bull-')
  ctx.key = createKey(ctx.data, 10_000)
  ctx.port = await freePort()
  ctx.server = await serve(ctx.data, ctx.port, { REELFORGE_REDIS_URL: REDIS_URL })
  ctx.workers = [await startWorker(ctx.data), await startWorker(ctx.data)]
})
test.after(async () => {
  await Promise.all([ctx.server && stop(ctx.server), ...(ctx.workers ?? []).map((w) => stop(w.child, 'SIGKILL'))])
})

test('6 renders: all complete, each rendered exactly once, charged once, spread over both workers', async () => {
  const edit = () => ({ ...titleEdit(4), output: { format: 'mp4', size: { width: 320, height: 180 }, fps: 25 } })
  const ids: string[] = []
  for (let i = 0; i < 6; i++) {
    const r = await api(ctx.port, ctx.key, 'POST', '/v1/render', edit())
    assert.is(r.status, 201, JSON.stringify(r.body))
    ids.push(r.body.jobId)
  }
  const done = await Promise.all(ids.map((id) => waitStatus(ctx.port, ctx.key, id, ['COMPLETE', 'FAILED'], 180_000)))
  for (const job of done) {
    assert.is(job.status, 'COMPLETE', job.error)
    assert.ok(Math.abs(job.duration - 4) < 0.05)
    const file = await fetch(job.url)
    assert.is(file.status, 200)
    assert.ok((await file.arrayBuffer()).byteLength > 1000, "the worker's file is served by the server")
  }
  for (const id of ids) assert.is(rendered(ctx.workers[0]!, id) + rendered(ctx.workers[1]!, id), 1, `job ${id} rendered once`)
  assert.ok(
    ctx.workers.every((w) => /rendering /.test(w.log())),
    `both workers rendered: ${ctx.workers.map((w) => w.log()).join('\n---\n')}`,
  )
  const ledger = (await api(ctx.port, ctx.key, 'GET', '/v1/wallet/ledger?limit=200')).body.entries as { kind: string; job_id: string }[]
  for (const id of ids) assert.is(ledger.filter((e) => e.job_id === id && e.kind === 'charge').length, 1, `job ${id} charged once`)
  const wallet = (await api(ctx.port, ctx.key, 'GET', '/v1/wallet')).body
  assert.is(wallet.held, 0, 'no credits left held')
  const progressSeen = (await api(ctx.port, ctx.key, 'GET', `/v1/render/${ids[5]}`)).body
  assert.is(progressSeen.progress, 1)
})

test('a worker killed mid-render: BullMQ gives its job to the other worker, which finishes it', async () => {
  const long = { ...titleEdit(40), output: { format: 'mp4', size: { width: 640, height: 360 }, fps: 25 } }
  const { jobId } = (await api(ctx.port, ctx.key, 'POST', '/v1/render', long)).body
  let victim: WorkerProc | undefined
  for (let i = 0; i < 600 && !victim; i++) {
    victim = ctx.workers.find((w) => rendered(w, jobId) > 0)
    await new Promise((r) => setTimeout(r, 50))
  }
  assert.ok(victim, 'a worker took the job')
  const survivor = ctx.workers.find((w) => w !== victim)!
  // Mid-render: the server has seen progress from it.
  for (let i = 0; i < 600; i++) {
    const s = (await api(ctx.port, ctx.key, 'GET', `/v1/render/${jobId}`)).body
    if (s.status === 'PROCESSING' && s.progress > 0.05) break
    await new Promise((r) => setTimeout(r, 100))
  }
  await stop(victim.child, 'SIGKILL')
  const job = await waitStatus(ctx.port, ctx.key, jobId, ['COMPLETE', 'FAILED'], 240_000)
  assert.is(job.status, 'COMPLETE', job.error)
  assert.ok(Math.abs(job.duration - 40) < 0.05)
  assert.is(rendered(survivor, jobId), 1, 'the other worker rendered it')
  assert.match(survivor.log(), new RegExp(`rendering ${jobId} \\(attempt \\d\\)`))
  const ledger = (await api(ctx.port, ctx.key, 'GET', '/v1/wallet/ledger?limit=200')).body.entries as { kind: string; job_id: string }[]
  assert.is(ledger.filter((e) => e.job_id === jobId && e.kind === 'charge').length, 1, 'charged once')
})

test('cancel reaches the worker rendering the job; a render error fails the job once, not retried', async () => {
  const long = { ...titleEdit(60), output: { format: 'mp4', size: { width: 640, height: 360 }, fps: 25 } }
  const { jobId } = (await api(ctx.port, ctx.key, 'POST', '/v1/render', long)).body
  await waitStatus(ctx.port, ctx.key, jobId, ['PROCESSING'], 60_000)
  const cancelled = await api(ctx.port, ctx.key, 'DELETE', `/v1/render/${jobId}`)
  assert.is(cancelled.body.status, 'FAILED')
  assert.is(cancelled.body.error, 'cancelled')
  const alive = ctx.workers.filter((w) => w.child.exitCode === null && w.child.signalCode === null)
  for (let i = 0; i < 200 && !alive.some((w) => w.log().includes(`failed ${jobId}: cancelled`)); i++) await new Promise((r) => setTimeout(r, 50))
  assert.ok(
    alive.some((w) => w.log().includes(`cancelling ${jobId}`) && w.log().includes(`failed ${jobId}: cancelled`)),
    'the worker stopped rendering',
  )

  const bad = {
    timeline: {
      tracks: [
        {
          clips: [
            { asset: { type: 'image', src: `http://127.0.0.1:${ctx.port}/v1/files/00000000-0000-4000-8000-000000000000/missing.png` }, start: 0, length: 1 },
          ],
        },
      ],
    },
    output: { format: 'mp4', resolution: 'preview' },
  }
  const { jobId: badId } = (await api(ctx.port, ctx.key, 'POST', '/v1/render', bad)).body
  const failed = await waitStatus(ctx.port, ctx.key, badId, ['COMPLETE', 'FAILED'], 60_000)
  assert.is(failed.status, 'FAILED')
  assert.match(failed.error, /timeline\.tracks\[0\]\.clips\[0\]/)
  const attempts = ctx.workers.reduce((n, w) => n + rendered(w, badId), 0)
  assert.is(attempts, 1, 'a render error is not retried')
  assert.is((await api(ctx.port, ctx.key, 'GET', '/v1/wallet')).body.held, 0, 'holds released')
})

test.run()
