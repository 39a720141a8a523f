import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { httpSender } from '../../../kit.js'
import { startReceiver } from '../../helpers/receiver.js'
import { testService, titleEdit } from '../../helpers/service.js'

const SECRET = 's'.repeat(24)

const ssrf = suite('SSRF: URLs into private networks are refused')
ssrf('PUT /v1/webhooks and a render callback pointing at loopback, private or metadata addresses → 400 naming the field', async () => {
  // The default policy: no private network allowed.
  const svc = await testService({ config: { network: {} } })
  for (const url of [
    'http://169.254.169.254/latest/meta-data',
    'http://127.0.0.1:8080/hook',
    'http://localhost/hook',
    'http://[::1]/hook',
    'http://10.0.0.5/hook',
  ]) {
    const put = await svc.call('PUT', '/v1/webhooks', { body: { url, events: ['render.complete'], secret: SECRET } })
    assert.is(put.status, 400, url)
    assert.is(put.body.error.issues[0].path, 'url')
    assert.match(put.body.error.issues[0].message, /refused: .*(loopback|private|link-local)/)
    const render = await svc.call('POST', '/v1/render', { body: { ...titleEdit(1), callback: url } })
    assert.is(render.status, 400, url)
    assert.is(render.body.error.issues[0].path, 'callback')
  }
  assert.is(await svc.jobs.queued(), 0, 'nothing queued')
  assert.is((await svc.call('GET', '/v1/webhooks')).status, 404, 'nothing stored')
  await svc.close()
})
ssrf('the webhook sender refuses loopback at connection time (a name that resolves there too); allowed, it delivers', async () => {
  const rx = await startReceiver()
  const port = new URL(rx.url).port
  for (const url of [rx.url, `http://localhost:${port}/`]) {
    const r = await httpSender().send(url, '{}', {})
    assert.is(r.ok, false)
    assert.match(r.error!, /loopback address/)
  }
  assert.is(rx.received.length, 0, 'no request was made')
  const allowed = await httpSender({ network: { allow: ['127.0.0.1'] } }).send(rx.url, '{}', {})
  assert.is(allowed.ok, true)
  assert.is(rx.received.length, 1)
  await rx.close()
})
ssrf.run()

const isolation = suite("accounts never see each other's data")
isolation('every route with an id answers 404 to another account, exactly like a missing id; lists are per account', async () => {
  const svc = await testService({ start: true })
  const other = svc.sandbox // a different account
  // Account A: a finished render, an image, a batch, a webhook and a delivery.
  const job = (await svc.call('POST', '/v1/render', { body: titleEdit(1) })).body.jobId
  const done = await svc.waitFor(job, ['COMPLETE'])
  const image = (await svc.call('POST', '/v1/ai/image', { body: { prompt: 'a kite' }, key: other })).body // B's own image
  const mine = (await svc.call('POST', '/v1/ai/image', { body: { prompt: 'a kite', model: 'flux' } })).body
  const batch = (await svc.call('POST', '/v1/ai/image/batch', { body: { requests: [{ prompt: 'a' }] } })).body
  await svc.call('PUT', '/v1/webhooks', { body: { url: 'https://example.com/hook', events: ['render.complete'], secret: SECRET } })
  const [delivery] = await svc.webhooks.emit(svc.liveAccount, 'wallet.deposit', { amount: 1, balance: 1 }, 'https://example.com/cb')
  const missing = '00000000-0000-4000-8000-000000000000'

  const pairs: [string, string, string][] = [
    ['GET', `/v1/render/${job}`, `/v1/render/${missing}`],
    ['DELETE', `/v1/render/${job}`, `/v1/render/${missing}`],
    ['GET', `/v1/ai/image/${mine.id}`, `/v1/ai/image/${missing}`],
    ['GET', `/v1/ai/image/batch/${batch.batchId}`, `/v1/ai/image/batch/${missing}`],
    ['POST', `/v1/webhooks/deliveries/${delivery}/replay`, `/v1/webhooks/deliveries/${missing}/replay`],
  ]
  for (const [method, theirs, none] of pairs) {
    const a = await svc.call(method, theirs, { key: other })
    const b = await svc.call(method, none, { key: other })
    assert.is(a.status, 404, `${method} ${theirs}`)
    assert.is(a.body.error.code, b.body.error.code)
    if (method === 'GET') assert.is((await svc.call('GET', theirs)).status, 200, `the owner reads ${theirs}`)
  }
  assert.is((await svc.call('GET', `/v1/ai/image/${image.id}`)).status, 404, 'and the other way round')
  assert.is((await svc.call('GET', '/v1/webhooks', { key: other })).status, 404, 'B has no global webhook of its own')
  const log = (await svc.call('GET', '/v1/webhooks/deliveries', { key: other })).body.deliveries as { id: string }[]
  assert.not.ok(
    log.some((d) => d.id === delivery),
    "A's deliveries are not in B's log",
  )
  const walletA = (await svc.call('GET', '/v1/wallet')).body,
    walletB = (await svc.call('GET', '/v1/wallet', { key: other })).body
  assert.is.not(walletA.balance, walletB.balance, 'each account sees its own balance')
  // B's key is a sandbox key, which reads no ledger at all (403); a live key of a third account sees only its own.
  assert.is((await svc.call('GET', '/v1/wallet/ledger', { key: other })).status, 403)
  const ledgerC = (await svc.call('GET', '/v1/wallet/ledger', { key: (await svc.keys.create()).key })).body.entries as { job_id?: string }[]
  assert.not.ok(JSON.stringify(ledgerC).includes(job), "A's charges are not in another account's ledger")
  // The job is still A's and intact after B's DELETE.
  assert.is((await svc.call('GET', `/v1/render/${job}`)).body.status, done.status)
  await svc.close()
})
isolation('admin-only routes refuse ordinary keys with 403', async () => {
  const svc = await testService()
  const r = await svc.call('POST', '/v1/wallet/deposits', { body: { amount: 100 } })
  assert.is(r.status, 403)
  assert.is(r.body.error.code, 'E_FORBIDDEN')
  await svc.close()
})
isolation.run()
