import { createReadStream, readdirSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { probe } from '../../kit.js'
import { decodeAudio, lavfi, rmsDb, tempDir } from '../helpers/media.js'
import { freshRedis, REDIS_URL } from '../helpers/redis.js'
import { api, createKey, freePort, serve, startCli, stop, waitStatus } from '../helpers/serve-child.js'

// `reelforge serve --redis … --segments 2` and two workers: one worker plans each render and queues its time
// segments and its sound as pieces; both workers render pieces; the coordinator joins them by stream copy.

type WorkerProc = Awaited<ReturnType<typeof startCli>>
const LOOPBACK = { REELFORGE_ALLOW_NETWORKS: '127.0.0.0/8' }
const startWorker = (data: string) =>
  startCli(['worker', '--redis', REDIS_URL, '--data', data], { REELFORGE_LOCK_MS: '3000', ...LOOPBACK }, /reelforge worker \d+ ready/, 15_000)

const ctx = {} as { data: string; port: number; server: ChildProcess; workers: WorkerProc[]; key: string; media: Server; tone: string }
const test = suite('BullMQ: one render split over two workers', ctx)
test.before(async () => {
  await freshRedis()
  ctx.data = tempDir('reelforge-bull-seg-')
  const tone = await lavfi('sine=frequency=440:duration=3', join(ctx.data, 'tone.wav'))
  // The sound comes over HTTP, as assets do in the service.
  ctx.media = createServer((_req, res) => (res.setHeader('content-type', 'audio/wav'), createReadStream(tone).pipe(res)))
  await new Promise<void>((r) => ctx.media.listen(0, '127.0.0.1', () => r()))
  ctx.tone = `http://127.0.0.1:${(ctx.media.address() as { port: number }).port}/tone.wav`
  ctx.key = createKey(ctx.data, 10_000)
  ctx.port = await freePort()
  ctx.server = await serve(ctx.data, ctx.port, { REELFORGE_REDIS_URL: REDIS_URL, REELFORGE_SEGMENTS: '2', ...LOOPBACK })
  ctx.workers = [await startWorker(ctx.data), await startWorker(ctx.data)]
})
test.after(async () => {
  await Promise.all([ctx.server && stop(ctx.server), ...(ctx.workers ?? []).map((w) => stop(w.child, 'SIGKILL'))])
  await new Promise((r) => ctx.media?.close(r))
})

test('an 8 s render: both workers render a segment, the joined file has exactly 200 frames, 8 s and the sound once', async () => {
  const edit = {
    timeline: {
      background: '#000000',
      soundtrack: { src: ctx.tone },
      tracks: [
        {
          clips: [
            { asset: { type: 'title', text: 'one', style: 'minimal' }, start: 0, length: 4, effect: 'zoomIn' },
            { asset: { type: 'title', text: 'two', style: 'minimal' }, start: 4, length: 4, transition: { in: 'fade' } },
          ],
        },
      ],
    },
    output: { format: 'mp4', size: { width: 320, height: 180 }, fps: 25 },
  }
  const r = await api(ctx.port, ctx.key, 'POST', '/v1/render', edit)
  assert.is(r.status, 201, JSON.stringify(r.body))
  const job = await waitStatus(ctx.port, ctx.key, r.body.jobId, ['COMPLETE', 'FAILED'], 180_000)
  assert.is(job.status, 'COMPLETE', job.error)
  const logs = ctx.workers.map((w) => w.log())
  assert.is(logs.filter((l) => new RegExp(`rendering ${r.body.jobId} \\(attempt 1, in 2 segments`).test(l)).length, 1, 'one worker coordinated')
  const pieces = logs.map((l) => (l.match(new RegExp(`rendered segment \\d of ${r.body.jobId}`, 'g')) ?? []).length)
  assert.is(pieces[0]! + pieces[1]!, 2, `two video segments rendered: ${logs.join('\n---\n')}`)
  assert.ok(
    pieces.every((n) => n === 1),
    `one segment on each worker: ${pieces}`,
  )
  assert.is(logs.join('\n').match(new RegExp(`rendered segment sound of ${r.body.jobId}`, 'g'))?.length, 1, 'the sound rendered once')

  const file = join(ctx.data, 'files', r.body.jobId, `${r.body.jobId}.mp4`)
  const p = await probe(file, { countFrames: true })
  const video = p.streams.find((s) => s.type === 'video')!
  assert.is(video.frames, 200, 'the frames of a single render')
  assert.ok(Math.abs(video.frames! / video.fps! - 8) < 1e-6)
  assert.ok(Math.abs(job.duration - 8) < 0.05)
  assert.ok(
    p.streams.some((s) => s.type === 'audio'),
    'sound muxed in',
  )
  const sound = await decodeAudio(file)
  assert.ok(rmsDb(sound, 0.5, 2.5) > -30, 'the tone plays at the start')
  assert.ok(rmsDb(sound, 4, 7) < -50, 'and is silent after the 3 s file ends')
  assert.equal(readdirSync(join(ctx.data, 'files', r.body.jobId)), [`${r.body.jobId}.mp4`], 'the pieces were removed from storage after the join')
  const ledger = (await api(ctx.port, ctx.key, 'GET', '/v1/wallet/ledger?limit=50')).body.entries as { kind: string; job_id: string }[]
  assert.is(ledger.filter((e) => e.job_id === r.body.jobId && e.kind === 'charge').length, 1, 'charged once')
})

test('cancelling a split render stops its pieces on both workers', async () => {
  const edit = {
    timeline: {
      background: '#000000',
      tracks: [{ clips: [{ asset: { type: 'title', text: 'long', style: 'minimal' }, start: 0, length: 60, effect: 'zoomIn' }] }],
    },
    output: { format: 'mp4', size: { width: 640, height: 360 }, fps: 25 },
  }
  const { jobId } = (await api(ctx.port, ctx.key, 'POST', '/v1/render', edit)).body
  const started = (i: number) => ctx.workers.some((w) => w.log().includes(`rendering segment ${i} of ${jobId}`))
  for (let t = 0; t < 600 && !(started(0) && started(1)); t++) await new Promise((r) => setTimeout(r, 50))
  assert.ok(started(0) && started(1), 'both pieces rendering')
  assert.is((await api(ctx.port, ctx.key, 'DELETE', `/v1/render/${jobId}`)).status, 200)
  const job = await waitStatus(ctx.port, ctx.key, jobId, ['FAILED', 'COMPLETE'], 30_000)
  assert.is(job.status, 'FAILED')
  assert.is(job.error, 'cancelled')
  const logs = () => ctx.workers.map((w) => w.log()).join('\n')
  for (let t = 0; t < 200 && !(logs().includes(`cancelling ${jobId}-1-0`) && logs().includes(`cancelling ${jobId}-1-1`)); t++)
    await new Promise((r) => setTimeout(r, 50))
  assert.ok(logs().includes(`cancelling ${jobId}-1-0`) && logs().includes(`cancelling ${jobId}-1-1`), `both pieces cancelled:\n${logs()}`)
  await new Promise((r) => setTimeout(r, 1000))
  assert.not.ok(logs().includes(`rendered segment 0 of ${jobId}`) || logs().includes(`rendered segment 1 of ${jobId}`), 'no piece ran to the end')
})

test.run()
