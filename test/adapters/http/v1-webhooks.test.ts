import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { verifyWebhook } from '../../../index.js'
import { httpSender, signWebhook } from '../../../kit.js'
import { ManualClock } from '../../../service/lib/clock.js'
import { RETRY_SCHEDULE_MS } from '../../../service/webhooks/outbox.js'
import { startReceiver } from '../../helpers/receiver.js'
import { LOOPBACK, titleEdit, testService } from '../../helpers/service.js'

const SECRET = 'global-secret-0123456789'

// ── The helper receivers use ────────────────────────────────────────────────────────────────
const verify = suite('verifyWebhook')
verify('accepts the header with or without sha256=, rejects wrong secrets, tampered bodies and junk', () => {
  const body = '{"event":"render.complete","data":{"id":"x"}}'
  const header = signWebhook(body, 's3cret')
  assert.match(header, /^sha256=[0-9a-f]{64}$/)
  assert.ok(verifyWebhook(body, header, 's3cret'))
  assert.ok(verifyWebhook(Buffer.from(body), header.slice(7), 's3cret'))
  assert.not.ok(verifyWebhook(body, header, 'other'))
  assert.not.ok(verifyWebhook(body.replace('x', 'y'), header, 's3cret'))
  assert.not.ok(verifyWebhook(body, 'sha256=zz', 's3cret'))
  assert.not.ok(verifyWebhook(body, undefined, 's3cret'))
})
verify.run()

// ── Configuration ───────────────────────────────────────────────────────────────────────────
const config = suite('PUT/GET/DELETE /v1/webhooks')
config('invalid URLs and unknown event names are 400 naming the field; the secret is masked when read back', async () => {
  const svc = await testService()
  const badUrl = await svc.call('PUT', '/v1/webhooks', { body: { url: 'not a url', events: ['render.complete'], secret: SECRET } })
  assert.is(badUrl.status, 400)
  assert.ok(badUrl.body.error.issues.some((i: { path: string }) => i.path === 'url'))
  const badEvent = await svc.call('PUT', '/v1/webhooks', {
    body: { url: 'https://example.com/hook', events: ['render.complete', 'render.exploded'], secret: SECRET },
  })
  assert.is(badEvent.status, 400)
  assert.ok(badEvent.body.error.issues.some((i: { path: string; message: string }) => i.path === 'events[1]' && /render\.exploded/.test(i.message)))
  const ok = await svc.call('PUT', '/v1/webhooks', { body: { url: 'https://example.com/hook', events: ['render.complete'], secret: SECRET } })
  assert.is(ok.status, 200)
  const shown = await svc.call('GET', '/v1/webhooks')
  assert.is(shown.body.url, 'https://example.com/hook')
  assert.not.ok(JSON.stringify(shown.body).includes(SECRET), 'secret masked')
  assert.is((await svc.call('GET', '/v1/webhooks', { key: svc.sandbox })).status, 404, 'per account')
  assert.is((await svc.call('DELETE', '/v1/webhooks')).status, 200)
  assert.is((await svc.call('GET', '/v1/webhooks')).status, 404)
  await svc.close()
})
config.run()

// ── Delivery ────────────────────────────────────────────────────────────────────────────────
const delivery = suite('deliveries')
delivery("a job's events reach its callback and the global webhook, signed, in order, with the documented data", async () => {
  const rx = await startReceiver()
  const svc = await testService({ start: true })
  await svc.call('PUT', '/v1/webhooks', {
    body: { url: `${rx.url}/global`, events: ['render.queued', 'render.processing', 'render.complete'], secret: SECRET },
  })
  const { body } = await svc.call('POST', '/v1/render', { body: { ...titleEdit(1), callback: `${rx.url}/callback` } })
  await svc.waitFor(body.jobId, ['COMPLETE'])
  const got = await rx.waitFor(6)
  for (const target of ['/global', '/callback']) {
    const mine = got.filter((r) => r.path === target)
    assert.equal(
      mine.map((r) => r.json.event),
      ['render.queued', 'render.processing', 'render.complete'],
      target,
    )
    for (const r of mine) {
      const secret = target === '/global' ? SECRET : svc.signingSecret
      assert.ok(verifyWebhook(r.body, r.headers['x-reelforge-signature'] as string, secret), `${target} ${r.json.event} signature`)
      assert.match(r.headers['webhook-id'] as string, /^msg_/)
      assert.match(r.headers['webhook-timestamp'] as string, /^\d{10}$/)
      assert.is(new Date(r.json.timestamp).toISOString(), r.json.timestamp)
    }
    const complete = mine[2]!.json.data
    assert.equal(Object.keys(complete).sort(), ['credits_used', 'duration', 'id', 'poster', 'status', 'thumbnail', 'url', 'wallet_balance'].sort())
    assert.is(complete.status, 'COMPLETE')
    assert.is(complete.id, body.jobId)
    assert.is(complete.credits_used, 1)
    assert.is(complete.wallet_balance, 1_000_000 - 1)
  }
  assert.is(new Set(got.map((r) => r.headers['webhook-id'])).size, 6, 'one id per delivery')
  await svc.close()
  await rx.close()
})
delivery('render.failed carries the error', async () => {
  const rx = await startReceiver()
  const svc = await testService({ start: true })
  const bad = titleEdit() as any
  bad.timeline.tracks.push({ clips: [{ asset: { type: 'image', src: '/v1/files/00000000-0000-4000-8000-000000000000/missing.png' }, start: 0, length: 1 }] })
  const { body } = await svc.call('POST', '/v1/render', { body: { ...bad, callback: rx.url } })
  await svc.waitFor(body.jobId, ['FAILED'])
  const got = await rx.waitFor(3)
  const failed = got.find((r) => r.json.event === 'render.failed')!.json.data
  assert.is(failed.status, 'FAILED')
  assert.match(failed.error, /missing\.png/)
  assert.is(failed.credits_used, 0)
  await svc.close()
  await rx.close()
})

delivery('the retry schedule (30 s, 2 min, 10 min, 1 h, 6 h) then failed, with a fake clock; replay delivers', async () => {
  const rx = await startReceiver()
  rx.setStatus(500)
  const clock = new ManualClock(Date.UTC(2026, 0, 1))
  const svc = await testService({ overrides: { clock } })
  const [id] = await svc.webhooks.emit(svc.liveAccount, 'wallet.deposit', { amount: 1, balance: 1 }, rx.url)
  const due = async () => (await svc.outbox.get(svc.liveAccount, id!))!
  assert.is(await svc.outbox.tick(), 1)
  for (const [retry, wait] of RETRY_SCHEDULE_MS.entries()) {
    assert.is((await due()).status, 'pending')
    assert.is(Date.parse((await due()).next_attempt_at!) - clock.now(), wait, `retry ${retry + 1} is due ${wait} ms after the failure`)
    clock.advance(wait - 1)
    assert.is(await svc.outbox.tick(), 0, 'not yet due')
    clock.advance(1)
    assert.is(await svc.outbox.tick(), 1, `retry ${retry + 1}`)
  }
  const failed = await due()
  assert.is(failed.status, 'failed')
  assert.is(failed.attempts, 6)
  assert.is(failed.next_attempt_at, null)
  assert.equal(
    failed.attempt_log.map((a) => a.status),
    [500, 500, 500, 500, 500, 500],
  )
  const log = await svc.call('GET', '/v1/webhooks/deliveries?status=failed')
  assert.equal(
    log.body.deliveries.map((d: { id: string }) => d.id),
    [id],
  )
  rx.setStatus(204)
  const replay = await svc.call('POST', `/v1/webhooks/deliveries/${id}/replay`)
  assert.is(replay.status, 200)
  await svc.outbox.tick()
  assert.is((await due()).status, 'delivered')
  assert.is((await due()).last_status, 204)
  assert.is(rx.received.length, 7)
  assert.is(new Set(rx.received.map((r) => r.headers['webhook-id'])).size, 1, 'webhook-id stable across retries and the replay')
  assert.is((await svc.call('GET', '/v1/webhooks/deliveries?status=bogus')).status, 400)
  assert.is((await svc.call('POST', `/v1/webhooks/deliveries/${id}/replay`, { key: svc.sandbox })).status, 404, 'another account')
  await svc.close()
  await rx.close()
})
delivery('redirects and answers slower than the time-out are failures', async () => {
  const rx = await startReceiver()
  const svc = await testService({ overrides: { sender: httpSender({ timeoutMs: 300, network: LOOPBACK }) } })
  rx.setStatus(302)
  const [a] = await svc.webhooks.emit(svc.liveAccount, 'wallet.deposit', { amount: 1, balance: 1 }, rx.url)
  await svc.outbox.tick()
  assert.match((await svc.outbox.get(svc.liveAccount, a!))!.last_error!, /redirect \(302\)/)
  rx.setStatus(200)
  rx.setDelay(1000)
  const [b] = await svc.webhooks.emit(svc.liveAccount, 'wallet.deposit', { amount: 1, balance: 1 }, rx.url)
  await svc.outbox.tick()
  const slow = (await svc.outbox.get(svc.liveAccount, b!))!
  assert.is(slow.status, 'pending')
  assert.match(slow.last_error!, /no answer within 300 ms/)
  await svc.close()
  await rx.close()
})
delivery('a pending retry and its due time survive a restart of the service', async () => {
  const rx = await startReceiver()
  rx.setStatus(503)
  const clock = new ManualClock(Date.UTC(2026, 0, 1))
  const first = await testService({ overrides: { clock } })
  const [id] = await first.webhooks.emit(first.liveAccount, 'render.complete', { id: 'x' }, rx.url)
  await first.outbox.tick()
  const dueAt = (await first.outbox.get(first.liveAccount, id!))!.next_attempt_at
  await first.close()
  rx.setStatus(200)
  // A new process on the same data: nothing is due until the stored time, then it is delivered.
  const { createService } = await import('../../../adapters/http/create-service.js')
  const second = await createService(first.config, { clock })
  await second.start()
  await second.outbox.tick()
  assert.is((await second.outbox.get(first.liveAccount, id!))!.next_attempt_at, dueAt)
  assert.is(rx.received.length, 1)
  clock.advance(30_000)
  await second.outbox.tick()
  assert.is((await second.outbox.get(first.liveAccount, id!))!.status, 'delivered')
  assert.is(rx.received.length, 2)
  await second.close()
  await rx.close()
})
delivery.run()
