import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { testService, titleEdit, type TestService } from '../../helpers/service.js'

// A sandbox key is a sandbox, even on a paying account: it sees and acts on sandbox work only (live work
// answers 404 exactly like a missing id) and cannot change account settings (403). Each key here is on the
// SAME account as the live key, which is where the rule matters.

const ctx = {} as { svc: TestService; sandbox: string; sandboxAdmin: string; admin: string }
const MISSING = '00000000-0000-4000-8000-000000000000'
const hook = { url: 'http://127.0.0.1:9/hook', events: ['render.complete'], secret: 'sandbox-scope-secret-0123' }

const setup = async () => {
  ctx.svc = await testService()
  const account = ctx.svc.liveAccount
  ctx.sandbox = (await ctx.svc.keys.create({ sandbox: true, accountId: account })).key
  ctx.sandboxAdmin = (await ctx.svc.keys.create({ sandbox: true, admin: true, accountId: account })).key
  ctx.admin = (await ctx.svc.keys.create({ admin: true, accountId: account })).key
}
const teardown = () => ctx.svc.close()
const call = (method: string, path: string, key: string, body?: unknown) => ctx.svc.call(method, path, { key, body })
/** The answer a missing id gets, for comparison: a live id must be indistinguishable from it. */
const notFound = (res: { status: number; body: any }, what: string) => {
  assert.is(res.status, 404, what)
  assert.is(res.body.error.code, 'E_NOT_FOUND', what)
}
const forbidden = (res: { status: number; body: any }, what: string) => {
  assert.is(res.status, 403, what)
  assert.is(res.body.error.code, 'E_FORBIDDEN', what)
  assert.match(res.body.error.message, /sandbox keys cannot .*use a live key/, what)
}

const renders = suite('sandbox keys: renders')
renders.before(setup)
renders.after(teardown)
renders('list, read and cancel reach sandbox renders only; a live render is a 404 like a missing one', async () => {
  const live = (await call('POST', '/v1/render', ctx.svc.live, titleEdit(1))).body.jobId
  const sandbox = (await call('POST', '/v1/render', ctx.sandbox, titleEdit(1))).body.jobId
  assert.equal(
    (await call('GET', '/v1/render', ctx.sandbox)).body.renders.map((r: { id: string }) => r.id),
    [sandbox],
  )
  assert.equal(
    (await call('GET', '/v1/render', ctx.svc.live)).body.renders.map((r: { id: string }) => r.id),
    [sandbox, live],
    "live keys see the account's sandbox work too",
  )
  notFound(await call('GET', `/v1/render/${MISSING}`, ctx.sandbox), 'missing')
  notFound(await call('GET', `/v1/render/${live}`, ctx.sandbox), 'live render')
  notFound(await call('GET', `/v1/render/${live}?data=true`, ctx.sandbox), 'live render with data')
  notFound(await call('GET', `/edit/v1/render/${live}`, ctx.sandbox), 'legacy alias')
  notFound(await call('DELETE', `/v1/render/${live}`, ctx.sandbox), 'cancel a live render')
  assert.is((await call('GET', `/v1/render/${live}`, ctx.svc.live)).body.status, 'QUEUED', 'the live render was not cancelled')
  assert.is((await call('GET', `/v1/render/${sandbox}`, ctx.sandbox)).status, 200)
  const cancelled = await call('DELETE', `/v1/render/${sandbox}`, ctx.sandbox)
  assert.is(cancelled.status, 200)
  assert.is(cancelled.body.error, 'cancelled')
})
renders.run()

const webhooks = suite('sandbox keys: webhooks')
webhooks.before(setup)
webhooks.after(teardown)
webhooks("the global webhook and the signing secret are the account's: 403; reading the webhook is fine", async () => {
  forbidden(await call('PUT', '/v1/webhooks', ctx.sandbox, hook), 'set the webhook')
  notFound(await call('GET', '/v1/webhooks', ctx.svc.live), 'nothing was set')
  assert.is((await call('PUT', '/v1/webhooks', ctx.svc.live, hook)).status, 200)
  forbidden(await call('DELETE', '/v1/webhooks', ctx.sandbox), 'remove the webhook')
  const shown = await call('GET', '/v1/webhooks', ctx.sandbox)
  assert.is(shown.status, 200, 'reading is harmless: the secret is masked')
  assert.is(shown.body.url, hook.url)
  forbidden(await call('POST', '/v1/webhooks/secret', ctx.sandbox), 'rotate the signing secret')
  assert.is(await ctx.svc.webhooks.signingSecret(ctx.svc.liveAccount), ctx.svc.signingSecret, 'the signing secret is unchanged')
})
webhooks("an Idempotency-Key cannot replay a live key's answer to a sandbox key", async () => {
  const headers = { 'idempotency-key': 'submit-once' }
  const live = await ctx.svc.call('POST', '/v1/render', { key: ctx.svc.live, headers, body: titleEdit(1) })
  assert.is(live.status, 201)
  const again = await ctx.svc.call('POST', '/v1/render', { key: ctx.sandbox, headers, body: titleEdit(1) })
  assert.is(again.status, 201)
  assert.is(again.headers.get('idempotent-replayed'), null, 'not a replay of the live answer')
  assert.is.not(again.body.jobId, live.body.jobId, 'the live job id is not handed out')
  assert.is((await call('GET', `/v1/render/${again.body.jobId}`, ctx.sandbox)).status, 200, 'a sandbox render of its own')
})
webhooks('the delivery log and replay: sandbox deliveries only', async () => {
  await call('POST', '/v1/render', ctx.svc.live, { ...titleEdit(1), callback: 'http://127.0.0.1:9/live' })
  await call('POST', '/v1/render', ctx.sandbox, { ...titleEdit(1), callback: 'http://127.0.0.1:9/sandbox' })
  const all = (await call('GET', '/v1/webhooks/deliveries', ctx.svc.live)).body.deliveries as Array<{ id: string; url: string }>
  const liveOne = all.find((d) => d.url.endsWith('/live'))!
  const sandboxOne = all.find((d) => d.url.endsWith('/sandbox'))!
  assert.ok(liveOne && sandboxOne, 'live keys see both')
  assert.equal(
    (await call('GET', '/v1/webhooks/deliveries', ctx.sandbox)).body.deliveries.map((d: { id: string }) => d.id),
    [sandboxOne.id],
  )
  notFound(await call('POST', `/v1/webhooks/deliveries/${liveOne.id}/replay`, ctx.sandbox), 'replay a live delivery')
  assert.is((await call('POST', `/v1/webhooks/deliveries/${sandboxOne.id}/replay`, ctx.sandbox)).status, 200)
})
webhooks.run()

const wallet = suite('sandbox keys: wallet and keys')
wallet.before(setup)
wallet.after(teardown)
wallet('the balance can be read; the ledger (it names live renders), the threshold and deposits are 403', async () => {
  const before = (await call('GET', '/v1/wallet', ctx.svc.live)).body
  assert.equal((await call('GET', '/v1/wallet', ctx.sandbox)).body, before)
  forbidden(await call('GET', '/v1/wallet/ledger', ctx.sandbox), 'read the ledger')
  forbidden(await call('PUT', '/v1/wallet/threshold', ctx.sandbox, { low_balance_threshold: 5 }), 'set the threshold')
  forbidden(await call('POST', '/v1/wallet/deposits', ctx.sandboxAdmin, { amount: 50 }), 'deposit, even as an admin sandbox key')
  assert.equal((await call('GET', '/v1/wallet', ctx.svc.live)).body, before, 'nothing changed')
})
wallet('keys: an admin sandbox key can neither list, create nor revoke keys; /v1/me still answers', async () => {
  forbidden(await call('GET', '/v1/keys', ctx.sandboxAdmin), 'list keys')
  forbidden(await call('POST', '/v1/keys', ctx.sandboxAdmin, { admin: true }), 'create a key')
  const victim = (await call('GET', '/v1/keys', ctx.admin)).body.keys.find((k: { sandbox: boolean }) => !k.sandbox).id
  forbidden(await call('DELETE', `/v1/keys/${victim}`, ctx.sandboxAdmin), 'revoke a key')
  assert.is((await call('GET', '/v1/keys', ctx.admin)).body.keys.find((k: { id: string }) => k.id === victim).revoked_at, null)
  assert.is((await call('GET', '/v1/me', ctx.sandboxAdmin)).body.sandbox, true)
})
wallet.run()

const images = suite('sandbox keys: AI images')
images.before(setup)
images.after(teardown)
images('list, read and batches reach sandbox images only', async () => {
  const request = { prompt: 'a red fox', model: 'flux', width: 512, height: 512 }
  const live = (await call('POST', '/v1/ai/image', ctx.svc.live, request)).body.id
  const sandbox = (await call('POST', '/v1/ai/image', ctx.sandbox, request)).body.id
  assert.equal(
    (await call('GET', '/v1/ai/image', ctx.sandbox)).body.images.map((i: { id: string }) => i.id),
    [sandbox],
  )
  notFound(await call('GET', `/v1/ai/image/${live}`, ctx.sandbox), 'a live image')
  assert.is((await call('GET', `/v1/ai/image/${sandbox}`, ctx.sandbox)).status, 200)
  const liveBatch = (await call('POST', '/v1/ai/image/batch', ctx.svc.live, { requests: [request] })).body.batchId
  const sandboxBatch = (await call('POST', '/v1/ai/image/batch', ctx.sandbox, { requests: [request] })).body.batchId
  notFound(await call('GET', `/v1/ai/image/batch/${liveBatch}`, ctx.sandbox), 'a live batch')
  assert.is((await call('GET', `/v1/ai/image/batch/${sandboxBatch}`, ctx.sandbox)).status, 200)
  assert.is((await call('GET', `/v1/ai/image/batch/${liveBatch}`, ctx.svc.live)).status, 200)
})
images.run()
