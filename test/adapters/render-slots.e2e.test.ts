import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { startServer } from '../../adapters/http/serve.js'
import { DEFAULT_LIMITS, defaultConfig, type Limits } from '../../service/config.js'
import { groupAlive, groupPids } from '../../service/isolation/process-group.js'
import { indexedVideo, tempDir } from '../helpers/media.js'
import { renderChildren, running, sleep, until } from '../helpers/processes.js'
import { startReceiver } from '../helpers/receiver.js'
import { LOOPBACK, testService, titleEdit, type TestService } from '../helpers/service.js'
import { startWebHost } from '../helpers/web-hosts.js'
import { runnable } from '../helpers/serve-child.js'

// A render slot is never lost: whatever a render is doing — downloading, stuck in one long synchronous step,
// encoding — a cancel, its time budget or its memory ceiling ends its process and everything that process
// started, and the next job takes the slot. Checked from outside: the API, and the processes in /proc.

const RUNAWAY = runnable(fileURLToPath(new URL('../helpers/runaway-plugin.ts', import.meta.url)))
const output = { format: 'mp4', size: { width: 320, height: 180 }, fps: 25 }
const oneClip = (asset: object, length = 2) => ({ timeline: { tracks: [{ clips: [{ asset, start: 0, length }] }] }, output })

async function withService(limits: Partial<Limits>, fn: (svc: TestService) => Promise<void>) {
  const svc = await testService({ start: true, config: { isolateRenders: true, pluginModules: [RUNAWAY], limits: limits as Limits } })
  try {
    await fn(svc)
  } finally {
    await svc.close(1000)
  }
}
const status = async (svc: TestService, id: string, key = svc.live) => (await svc.call('GET', `/v1/render/${id}`, { key })).body
/** Prometheus text → one sample's value. */
const metric = (text: string, name: string) => Number(new RegExp(`^${name.replace(/[{}"]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1])

/**
 * Cancels `id` once `ready` says it is where the test wants it, then checks: its render process and every process
 * it started gone within 2 s, the other account's queued render (`waiting`) started within 1 s of that, no work
 * files left, and the job FAILED "cancelled" in the stage it was in.
 */
async function cancelFreesTheSlot(svc: TestService, id: string, waiting: string, stage: string) {
  const [child] = await until('the render process', renderChildren)
  const group = await groupPids(child!)
  const t0 = Date.now()
  assert.is((await svc.call('DELETE', `/v1/render/${id}`)).status, 200)
  await until('the render process group to be gone', () => !groupAlive(child!), 2000)
  const gone = Date.now()
  for (const pid of group) assert.not.ok(running(pid), `process ${pid} of the cancelled render is still alive`)
  await until('the queued render to start', async () => (await status(svc, waiting, svc.sandbox)).status !== 'QUEUED', 1000)
  assert.ok(gone - t0 <= 2000, `gone after ${gone - t0} ms`)
  const record = await status(svc, id)
  assert.equal([record.status, record.error, record.stage], ['FAILED', 'cancelled', stage])
  assert.not.ok(existsSync(join(svc.config.dataDir, 'work', id)), 'the partial output was removed')
  assert.is((await svc.waitFor(waiting, ['COMPLETE', 'FAILED'], svc.sandbox)).status, 'COMPLETE')
}

const cancel = suite('cancel is a kill: the process and everything it started end within 2 s, the slot is free at once')

cancel('stuck in one long synchronous step (as a huge text layout is) → killed; one cancelled event', async () => {
  const hooks = await startReceiver()
  try {
    await withService({}, async (svc) => {
      const id = (await svc.call('POST', '/v1/render', { body: { ...oneClip({ type: 'busy-loop' }), callback: hooks.url } })).body.jobId
      // The compositor reports `rendering` once everything is fetched, before it opens a source: from then on the
      // busy loop holds the process, which sends nothing more (not even progress). A fixed sleep guessed at that
      // moment and read `fetching` on a loaded machine whose render process was still starting.
      await until('the render to reach its sources', async () => (await status(svc, id)).stage === 'rendering')
      await sleep(500)
      const stage = (await status(svc, id)).stage
      assert.is(stage, 'rendering', 'the stuck step holds the stage where it was')
      const waiting = (await svc.call('POST', '/v1/render', { key: svc.sandbox, body: titleEdit(1) })).body.jobId
      await sleep(500)
      assert.is((await status(svc, waiting, svc.sandbox)).status, 'QUEUED', 'one slot: the other render waits behind the stuck one')
      await cancelFreesTheSlot(svc, id, waiting, stage)
      await sleep(1500) // every delivery the outbox would send has gone by now
      const failed = hooks.received.filter((r) => r.json?.data?.id === id && r.json?.event === 'render.failed')
      assert.is(failed.length, 1, 'one cancelled event')
      const metrics = (await svc.call('GET', '/metrics')).body as string
      assert.is(metric(metrics, 'reelforge_renders_in_progress'), 0)
      assert.is(metric(metrics, 'reelforge_render_processes{state="busy"}'), 0)
      assert.is(metric(metrics, 'reelforge_renders_running_here'), 0)
    })
  } finally {
    await hooks.close()
  }
})

cancel('while downloading a source that stalls mid-body → the download and its process end', async () => {
  const dir = tempDir('reelforge-slots-')
  const clip = await indexedVideo(join(dir, 'clip.mp4'), { fps: 25, seconds: 2 })
  const host = await startWebHost({ 'clip.mp4': (await import('node:fs')).readFileSync(clip) })
  try {
    await withService({}, async (svc) => {
      const id = (await svc.call('POST', '/v1/render', { body: oneClip({ type: 'video', src: `${host.url}/stall/clip.mp4` }) })).body.jobId
      await until('the render to be fetching', async () => (await status(svc, id)).stage === 'fetching')
      await sleep(500)
      const waiting = (await svc.call('POST', '/v1/render', { key: svc.sandbox, body: titleEdit(1) })).body.jobId
      await cancelFreesTheSlot(svc, id, waiting, 'fetching')
    })
  } finally {
    await host.close()
  }
})

cancel('while encoding → the encoder (ffmpeg) ends with its render process', async () => {
  await withService({}, async (svc) => {
    const id = (await svc.call('POST', '/v1/render', { body: titleEdit(40, { size: { width: 640, height: 360 }, fps: 25 }) })).body.jobId
    await until('frames being encoded', async () => (await status(svc, id)).progress > 0.05)
    const [child] = renderChildren()
    assert.ok((await groupPids(child!)).length > 1, 'the render process has started its encoder')
    const waiting = (await svc.call('POST', '/v1/render', { key: svc.sandbox, body: titleEdit(1) })).body.jobId
    await cancelFreesTheSlot(svc, id, waiting, 'rendering')
  })
})

cancel.run()

const limits = suite('every render is bounded: a time budget and a memory ceiling, each failing the job with its name')

limits('past its time budget → FAILED E_TIME_LIMIT naming the limit and its settings; the slot is free', async () => {
  await withService({ renderMinSeconds: 2, renderSecondsPerSecond: 0 }, async (svc) => {
    const id = (await svc.call('POST', '/v1/render', { body: oneClip({ type: 'busy-loop' }) })).body.jobId
    const failed = await svc.waitFor(id, ['FAILED', 'COMPLETE'], svc.live, 20_000)
    assert.is(failed.status, 'FAILED')
    assert.match(failed.error, /^E_TIME_LIMIT: the render ran past its time limit of 2 s .*REELFORGE_RENDER_TIME_MIN_S/)
    assert.ok(['fetching', 'rendering'].includes(failed.stage), failed.stage)
    await until('no render process left busy', () => renderChildren().every((pid) => !running(pid)) || undefined, 2000)
    const metrics = (await svc.call('GET', '/metrics')).body as string
    assert.is(metric(metrics, 'reelforge_renders_running_here'), 0)
  })
})

limits('past its memory ceiling → FAILED E_MEMORY_LIMIT naming the limit; the service renders the next job', async () => {
  await withService({ renderMemoryMb: 700 }, async (svc) => {
    const id = (await svc.call('POST', '/v1/render', { body: oneClip({ type: 'memory-hog', mb: 2000 }) })).body.jobId
    const failed = await svc.waitFor(id, ['FAILED', 'COMPLETE'], svc.live, 60_000)
    assert.is(failed.status, 'FAILED')
    assert.match(
      failed.error,
      /^E_MEMORY_LIMIT: the render used \d+ MB of memory while \w+, more than the limit of 700 MB \(limits\.renderMemoryMb, env REELFORGE_RENDER_MEMORY_MB\)/,
    )
    const next = (await svc.call('POST', '/v1/render', { body: titleEdit(1, output) })).body.jobId
    assert.is((await svc.waitFor(next, ['COMPLETE', 'FAILED'])).status, 'COMPLETE', 'an ordinary render fits under the ceiling')
  })
})

limits.run()

const frames = suite('a frame preview stops when its client goes and has a short time limit')

frames('the client disconnects after 1 s → the frame stops within 2 s (its render process is ended)', async () => {
  const server = await startServer(defaultConfig({ dataDir: tempDir('reelforge-frames-'), port: 0, network: LOOPBACK, pluginModules: [RUNAWAY] }))
  try {
    const key = (await server.service.keys.create()).key
    const body = JSON.stringify({ ...oneClip({ type: 'busy-loop' }), time: 0.5 })
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
    const asked = fetch(`${server.url}/v1/render/frame`, { method: 'POST', headers, body, signal: AbortSignal.timeout(1000) })
    assert.ok(
      await asked.then(
        () => undefined,
        (e: Error) => e,
      ),
      'the client gave up after 1 s',
    )
    const left = Date.now()
    const busy = renderChildren().filter(running)
    assert.ok(busy.length > 0, 'the frame was drawing when its client left')
    await until('the frame to stop', () => busy.every((pid) => !running(pid)) || undefined, 2000)
    assert.ok(Date.now() - left <= 2000)
  } finally {
    await server.close(1000)
  }
})

frames('clients that give up at once (an editor scrubbing) are neither errors in the log nor a listener leak', async () => {
  const server = await startServer(defaultConfig({ dataDir: tempDir('reelforge-frames-'), port: 0, network: LOOPBACK }))
  const logged: string[] = []
  const warnings: string[] = []
  const error = console.error
  console.error = (...args: unknown[]) => void logged.push(args.map(String).join(' '))
  const onWarning = (w: Error) => warnings.push(w.name)
  process.on('warning', onWarning)
  try {
    const key = (await server.service.keys.create()).key
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
    const body = JSON.stringify({ ...titleEdit(1, output), time: 0.5 })
    const asks = Array.from({ length: 15 }, () =>
      fetch(`${server.url}/v1/render/frame`, { method: 'POST', headers, body, signal: AbortSignal.timeout(30) }).catch(() => undefined),
    )
    await Promise.all(asks)
    await sleep(1500)
    assert.equal(
      logged.filter((l) => /\[http\].*failed/.test(l)),
      [],
      'a client that left is not a server failure',
    )
    assert.equal(warnings, [], 'no MaxListenersExceededWarning')
  } finally {
    console.error = error
    process.off('warning', onWarning)
    await server.close(1000)
  }
})

frames('past its limit → 422 E_TIME_LIMIT naming limits.frameSeconds, in about that time', async () => {
  const svc = await testService({ config: { isolateRenders: true, pluginModules: [RUNAWAY], limits: { ...DEFAULT_LIMITS, frameSeconds: 3 } } })
  try {
    const started = Date.now()
    const r = await svc.call('POST', '/v1/render/frame', { body: { ...oneClip({ type: 'busy-loop' }), time: 0.5 } })
    assert.equal([r.status, r.body.error?.code], [422, 'E_TIME_LIMIT'])
    assert.match(r.body.error.message, /longer than its limit of 3 s \(limits\.frameSeconds\)/)
    assert.ok(Date.now() - started < 3000 + 3000, `answered after ${Date.now() - started} ms`)
    // And the next frame is drawn (in a fresh render process, whose start on a loaded machine may alone take 3 s).
    svc.config.limits.frameSeconds = 60
    const ok = await svc.call('POST', '/v1/render/frame', { body: { ...titleEdit(1, output), time: 0.5 } })
    assert.is(ok.status, 200)
  } finally {
    await svc.close(1000)
  }
})

frames.run()
