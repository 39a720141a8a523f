import { createServer } from 'node:net'
import { Redis } from 'ioredis'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { cleanEnv, linesOf, runCli } from '../helpers/cli-run.js'
import { tempDir } from '../helpers/media.js'
import { until } from '../helpers/processes.js'
import { REDIS_URL, redisDb } from '../helpers/redis.js'
import { api, createKey, freePort, serve, startCli, stop, waitStatus } from '../helpers/serve-child.js'
import { titleEdit } from '../helpers/service.js'
import { tcpProxy } from '../helpers/tcp-proxy.js'

// `reelforge worker` as an operator meets it: its own /healthz, /readyz and /metrics; /readyz false while its
// Redis is away and true once it is back (and it renders again); SIGTERM with Redis away ends within the grace;
// a start that cannot work ends at once with one line. Redis db 14 through a TCP proxy the test cuts: the
// shared Redis itself stays up for the other tests.

const redis14 = redisDb(14)
const metricOf = (text: string, name: string) => Number(new RegExp(`^${name.replace(/[{}"]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN)

test('a start that cannot work: a bad --redis (64), Redis not answering (1), its port in use (1) — one line each', async () => {
  const t = Date.now()
  const taken = createServer().listen(0, '127.0.0.1')
  await new Promise((r) => taken.once('listening', r))
  const port = (taken.address() as { port: number }).port
  const closed = await freePort()
  const data = tempDir('reelforge-worker-refuse-')
  try {
    const [url, down, busy] = await Promise.all([
      runCli(['worker', '--redis', 'notaurl', '--data', data], cleanEnv()),
      runCli(['worker', '--redis', `redis://127.0.0.1:${closed}`, '--data', data], cleanEnv()),
      runCli(['worker', '--redis', redis14, '--data', data, '--port', String(port)], cleanEnv()),
    ])
    for (const [run, code, pattern] of [
      [url, 64, /^reelforge worker: --redis must be a redis:\/\/ or rediss:\/\/ URL, not "notaurl"$/],
      [down, 1, new RegExp(`^reelforge worker: Redis at redis://127\\.0\\.0\\.1:${closed} does not answer \\(.*ECONNREFUSED`)],
      [busy, 1, new RegExp(`^reelforge worker: port ${port} on 127\\.0\\.0\\.1 is already in use \\(EADDRINUSE\\)$`)],
    ] as const) {
      assert.is(run.code, code, run.output)
      assert.is(linesOf(run).length, 1, run.output)
      assert.match(linesOf(run)[0]!, pattern)
    }
  } finally {
    taken.close()
  }
  console.log(`  refusals: ${((Date.now() - t) / 1000).toFixed(1)} s`)
})

test("/healthz and /metrics answer; /readyz is false while the worker's Redis is down, true after, and it renders again", async () => {
  const t = Date.now()
  const flush = new Redis(redis14)
  await flush.flushdb()
  flush.disconnect()
  const data = tempDir('reelforge-worker-ops-')
  const key = createKey(data, 1000)
  const proxy = await tcpProxy({ port: Number(new URL(REDIS_URL).port) })
  const port = await freePort()
  const health = await freePort()
  const server = await serve(data, port, cleanEnv({ REELFORGE_REDIS_URL: redis14 }))
  const worker = await startCli(
    ['worker', '--redis', proxy.via(redis14), '--data', data, '--port', String(health)],
    cleanEnv({ REELFORGE_STOP_GRACE_S: '3', REELFORGE_LOCK_MS: '3000' }),
    /reelforge worker \d+ ready/,
    30_000,
  )
  const get = async (path: string) => {
    const r = await fetch(`http://127.0.0.1:${health}${path}`)
    return { status: r.status, text: await r.text() }
  }
  // The worker counts a render when BullMQ hands the job back to it, which may come a moment after the front end
  // has shown the job COMPLETE (it hears of it from Redis): wait for the count, which only this worker can raise.
  const completedHere = (n: number) =>
    until(
      `the worker's count of completed renders to reach ${n}`,
      async () => {
        const m = await get('/metrics')
        return metricOf(m.text, 'reelforge_worker_jobs_total{outcome="completed"}') === n ? m : undefined
      },
      10_000,
    )
  const render = async () => {
    const edit = { ...titleEdit(1), output: { format: 'mp4', size: { width: 320, height: 180 }, fps: 25 } }
    const { body } = await api(port, key, 'POST', '/v1/render', edit)
    assert.is((await waitStatus(port, key, body.jobId, ['COMPLETE', 'FAILED'], 60_000)).status, 'COMPLETE')
  }
  try {
    assert.match(worker.log(), new RegExp(`health on http://127\\.0\\.0\\.1:${health}\\)`))
    assert.equal(await get('/healthz'), { status: 200, text: '{"ok":true}' })
    assert.equal(JSON.parse((await get('/readyz')).text), { ready: true, redis: true, storage: true, shutting_down: false })
    assert.is(metricOf((await get('/metrics')).text, 'reelforge_rendered_frames_total'), 0)
    await render()
    const metrics = await completedHere(1)
    assert.match(metrics.text, /# TYPE reelforge_rendered_frames_total counter/)
    assert.is(metricOf(metrics.text, 'reelforge_rendered_frames_total'), 25, '1 s at 25 fps')
    assert.is(metricOf(metrics.text, 'reelforge_worker_jobs_total{outcome="completed"}'), 1)
    assert.is(metricOf(metrics.text, 'reelforge_renders_running_here'), 0)
    assert.ok(metricOf(metrics.text, 'reelforge_render_fps') > 0)
    assert.is((await get('/v1/render')).status, 404, 'health routes only')

    await proxy.cut()
    const down = await until('not ready', async () => ((await get('/readyz')).status === 503 ? get('/readyz') : undefined), 15_000)
    assert.equal(JSON.parse(down.text), { ready: false, redis: false, storage: true, shutting_down: false })
    assert.is((await get('/healthz')).status, 200, 'alive all the same')
    await proxy.restore()
    await until('ready again', async () => (await get('/readyz')).status === 200, 15_000)
    await render()
    assert.is(metricOf((await completedHere(2)).text, 'reelforge_worker_jobs_total{outcome="completed"}'), 2, 'this worker rendered it')

    await proxy.cut()
    await until('not ready', async () => (await get('/readyz')).status === 503, 15_000)
    const sent = Date.now()
    const exited = new Promise<number | null>((r) => worker.child.once('exit', (code) => r(code)))
    worker.child.kill('SIGTERM')
    const code = await Promise.race([exited, new Promise<'hung'>((r) => setTimeout(() => r('hung'), 15_000))])
    const seconds = (Date.now() - sent) / 1000
    console.log(`  worker SIGTERM with Redis down: exited ${code} after ${seconds.toFixed(1)} s (grace 3 s)`)
    assert.is(code, 0, worker.log())
    assert.ok(seconds <= 3 + 5, `${seconds} s`)
  } finally {
    await stop(worker.child, 'SIGKILL')
    await stop(server)
    await proxy.close()
  }
  console.log(`  health, readiness, metrics: ${((Date.now() - t) / 1000).toFixed(1)} s`)
})

test.run()
