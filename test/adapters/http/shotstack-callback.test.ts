import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { verifyWebhook } from '../../../index.js'
import { startReceiver } from '../../helpers/receiver.js'
import { type TestService, testService, titleEdit } from '../../helpers/service.js'

// What a Shotstack user's receiver gets when a render from `/edit/v1` ends: Shotstack's callback body, once,
// as it arrives over HTTP (signed like every reelforge delivery), while the global webhook keeps /v1's shape.

const SHOTSTACK_KEYS = ['action', 'completed', 'error', 'id', 'owner', 'status', 'type', 'url']
const ctx = {} as { svc: TestService; rx: Awaited<ReturnType<typeof startReceiver>> }
const test = suite('Shotstack callbacks as delivered', ctx)
test.before(async () => {
  ctx.rx = await startReceiver()
  ctx.svc = await testService({ start: true, config: { shotstack: true } })
  const hook = { url: `${ctx.rx.url}/global`, events: ['render.queued', 'render.complete', 'render.failed'], secret: 'global-secret-0123456789' }
  assert.is((await ctx.svc.call('PUT', '/v1/webhooks', { body: hook })).status, 200)
})
test.after(async () => {
  await ctx.svc.close()
  await ctx.rx.close()
})

/** Posts `edit` to Shotstack's render endpoint and waits for the job to end and its deliveries to arrive. */
async function renderThrough(edit: object, path: string) {
  const res = await ctx.svc.app.request('/edit/v1/render', {
    method: 'POST',
    headers: { 'x-api-key': ctx.svc.live, 'content-type': 'application/json' },
    body: JSON.stringify({ ...edit, callback: `${ctx.rx.url}${path}` }),
  })
  const id = ((await res.json()) as { response: { id: string } }).response.id
  const job = await ctx.svc.waitFor(id, ['COMPLETE', 'FAILED'])
  const arrived = () => ctx.rx.received.some((r) => r.path === path)
  for (const until = Date.now() + 30_000; !arrived() && Date.now() < until; ) await new Promise((r) => setTimeout(r, 100))
  await new Promise((r) => setTimeout(r, 500)) // nothing else should follow it
  return {
    job,
    callbacks: ctx.rx.received.filter((r) => r.path === path),
    global: ctx.rx.received.filter((r) => r.path === '/global' && r.json.data.id === id),
  }
}

test('a finished render: one Shotstack-shaped callback, signed; the global webhook keeps /v1 events', async () => {
  const { job, callbacks, global } = await renderThrough(titleEdit(1), '/done')
  assert.is(callbacks.length, 1, 'Shotstack calls back once, when the render ends (not on queued/processing)')
  const [cb] = callbacks
  assert.equal(Object.keys(cb!.json).sort(), SHOTSTACK_KEYS)
  assert.equal(
    { ...cb!.json, completed: undefined },
    { type: 'edit', action: 'render', id: job.id, owner: ctx.svc.liveAccount, status: 'done', url: job.url, error: null, completed: undefined },
  )
  assert.is(new Date(cb!.json.completed).toISOString(), cb!.json.completed)
  assert.match(cb!.headers['content-type'] as string, /^application\/json/)
  assert.ok(verifyWebhook(cb!.body, cb!.headers['x-reelforge-signature'] as string, ctx.svc.signingSecret), 'signed with the account secret')
  assert.equal(
    global.map((r) => r.json.event),
    ['render.queued', 'render.complete'],
  )
  assert.is(global[1]!.json.data.status, 'COMPLETE')
})

test('a failed render (its image host refuses): status failed, url null, the error in words without server paths', async () => {
  const broken = titleEdit(1) as { timeline: { tracks: Array<{ clips: object[] }> } }
  const missing = { asset: { type: 'image', src: 'http://127.0.0.1:9/gone.png' }, start: 0, length: 1 }
  const edit = { ...broken, timeline: { ...broken.timeline, tracks: [{ clips: [missing] }, ...broken.timeline.tracks] } }
  const { job, callbacks } = await renderThrough(edit, '/failed')
  assert.is(job.status, 'FAILED')
  assert.is(callbacks.length, 1)
  const body = callbacks[0]!.json
  assert.equal(Object.keys(body).sort(), SHOTSTACK_KEYS)
  assert.is(body.status, 'failed')
  assert.is(body.url, null)
  assert.type(body.error, 'string')
  assert.match(body.error, /gone\.png|refused/)
  assert.not.match(body.error, /\/tmp\/|\/work\/|node_modules/)
})

test.run()
