import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { testService, titleEdit } from '../../helpers/service.js'

const value = (text: string, name: string) => Number(new RegExp(`^${name.replace(/[{}"]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN)

const ops = suite('/healthz, /readyz, /metrics')
ops("metrics count the queue, the jobs by status, the webhook backlog and this process's rendered frames", async () => {
  const svc = await testService()
  const health = await svc.app.request('/healthz')
  assert.is(health.status, 200)
  assert.is((await svc.app.request('/readyz')).status, 200)
  const a = (await svc.call('POST', '/v1/render', { body: titleEdit(1) })).body.jobId
  await svc.call('POST', '/v1/render', { body: titleEdit(2) })
  await svc.webhooks.emit(svc.liveAccount, 'wallet.deposit', { amount: 1, balance: 1 }, 'https://example.com/hook')
  let text = await (await svc.app.request('/metrics')).text()
  assert.is(value(text, 'reelforge_queue_depth'), 2)
  assert.is(value(text, 'reelforge_jobs{status="QUEUED"}'), 2)
  assert.is(value(text, 'reelforge_webhook_backlog'), 1)
  assert.is(value(text, 'reelforge_rendered_frames_total'), 0)
  assert.match(text, /# TYPE reelforge_rendered_frames_total counter/)
  await svc.start()
  await svc.waitFor(a, ['COMPLETE'])
  for (let i = 0; i < 200 && value(text, 'reelforge_jobs{status="COMPLETE"}') !== 2; i++) {
    await new Promise((r) => setTimeout(r, 100))
    text = await (await svc.app.request('/metrics')).text()
  }
  assert.is(value(text, 'reelforge_jobs{status="COMPLETE"}'), 2)
  assert.is(value(text, 'reelforge_queue_depth'), 0)
  assert.is(value(text, 'reelforge_renders_in_progress'), 0)
  assert.is(value(text, 'reelforge_rendered_frames_total'), 75, '25 + 50 frames at 25 fps')
  assert.ok(value(text, 'reelforge_render_fps') > 0)
  assert.ok(value(text, 'reelforge_render_seconds_total') > 0)
  await svc.close()
  const after = await svc.app.request('/readyz')
  assert.is(after.status, 503, 'not ready once shutting down')
  assert.is((await after.json()).shutting_down, true)
})
ops('closing waits for a request still being handled: its job is stored, nothing meets a closed database', async () => {
  const svc = await testService()
  // A submission whose body is still arriving when the shutdown starts.
  const body = JSON.stringify(titleEdit(1))
  let finish!: () => void
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(new TextEncoder().encode(body.slice(0, 20)))
      finish = () => (c.enqueue(new TextEncoder().encode(body.slice(20))), c.close())
    },
  })
  const init = {
    method: 'POST',
    headers: { authorization: `Bearer ${svc.live}`, 'content-type': 'application/json' },
    body: stream,
    duplex: 'half',
  } as RequestInit
  const answer = svc.app.request('/v1/render', init)
  await new Promise((r) => setTimeout(r, 50))
  let closed = false
  const closing = svc.close().then(() => (closed = true))
  await new Promise((r) => setTimeout(r, 100))
  assert.not.ok(closed, 'close waits while the request runs')
  finish()
  const res = await answer
  assert.is(res.status, 201, await res.clone().text())
  const { jobId } = (await res.json()) as { jobId: string }
  await closing
  assert.ok(closed)
  const db = await (await import('../../../service/db/db.js')).openDatabase(
    svc.config.databaseUrl ?? (await import('../../../service/config.js')).dbPath(svc.config),
  )
  assert.is((await db.get<{ status: string }>('SELECT status FROM jobs WHERE id = ?', [jobId]))?.status, 'QUEUED', 'the job and its hold were stored')
  await db.close()
})
ops.run()
