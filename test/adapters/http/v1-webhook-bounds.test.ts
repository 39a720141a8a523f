import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { testService, titleEdit } from '../../helpers/service.js'

// What an account may store as where and how it is called back: bounded, tidy, and never shown in full.
const SECRET = 'bounds-secret-0123456789'
/** An https URL of exactly `n` characters. */
const urlOf = (n: number) => {
  const head = 'https://example.com/hook?pad='
  return head + 'a'.repeat(n - head.length)
}
type Answer = { status: number; body: any }
const refusedFor = (res: Answer, path: string) => {
  assert.is(res.status, 400, `${path}: ${JSON.stringify(res.body).slice(0, 300)}`)
  const issue = res.body.error.issues.find((i: { path: string }) => i.path === path)
  assert.ok(issue, `an issue at ${path}: ${JSON.stringify(res.body.error).slice(0, 300)}`)
  assert.match(issue.message, /at most 2048 characters/)
}

test('webhook and callback URLs are at most 2,048 characters: a 400 naming the field and the limit', async () => {
  const svc = await testService()
  try {
    const hook = (url: string) => svc.call('PUT', '/v1/webhooks', { body: { url, events: ['render.complete'], secret: SECRET } })
    refusedFor(await hook(urlOf(2049)), 'url')
    assert.is((await hook(urlOf(2048))).status, 200)
    const render = (callback: string) => svc.call('POST', '/v1/render', { body: { ...titleEdit(1), callback } })
    refusedFor(await render(urlOf(2049)), 'callback')
    assert.is((await render(urlOf(2048))).status, 201)
    // The other requests that take a callback keep to the same bound.
    refusedFor(await svc.call('POST', '/v1/stitch', { body: { clips: [{ src: 'https://example.com/a.mp4' }], callback: urlOf(2049) } }), 'callback')
    refusedFor(await svc.call('POST', '/v1/sources', { body: { url: 'https://example.com/a.mp4', callback: urlOf(2049) } }), 'callback')
    refusedFor(await svc.call('POST', '/v1/upload', { body: { filename: 'a.mp4', callback: urlOf(2049) } }), 'callback')
    // An upload's callback passes the network guard when submitted, as the others always did.
    const privateHook = await svc.call('POST', '/v1/upload', { body: { filename: 'a.mp4', callback: 'http://10.0.0.1/hook' } })
    assert.is(privateHook.status, 400)
    assert.is(privateHook.body.error.issues[0].path, 'callback')
  } finally {
    await svc.close()
  }
})

test("a webhook's repeated event names are stored and returned once each, in first-seen order", async () => {
  const svc = await testService()
  try {
    const events = ['render.failed', 'render.complete', 'render.failed', 'wallet.deposit', 'render.complete']
    const put = await svc.call('PUT', '/v1/webhooks', { body: { url: 'https://example.com/hook', events, secret: SECRET } })
    assert.is(put.status, 200, JSON.stringify(put.body))
    const once = ['render.failed', 'render.complete', 'wallet.deposit']
    assert.equal(put.body.events, once)
    assert.equal((await svc.call('GET', '/v1/webhooks')).body.events, once)
  } finally {
    await svc.close()
  }
})

test('a secret or credential shown masked shows at most 4 of its characters', async () => {
  const svc = await testService()
  try {
    // Letters the masks' own text (stars, dots, digits, lower case) never uses: whatever of these shows is revealed.
    const webhookSecret = 'QWERTYUIOPASDFGHJKLZXCVBNM'
    const s3Secret = 'MNBVCXZLKJHGFDSAPOIUYTREWQ'
    const revealed = (shown: string, secret: string) => [...shown].filter((c) => secret.includes(c)).length
    await svc.call('PUT', '/v1/webhooks', { body: { url: 'https://example.com/hook', events: ['render.complete'], secret: webhookSecret } })
    const hook = (await svc.call('GET', '/v1/webhooks')).body.secret as string
    assert.ok(revealed(hook, webhookSecret) <= 4, `GET /v1/webhooks shows ${JSON.stringify(hook)}`)
    await svc.call('PUT', '/v1/integrations/s3', { body: { access_key_id: 'AKIAEXAMPLE', secret_access_key: s3Secret } })
    const s3 = (await svc.call('GET', '/v1/integrations/s3')).body.secret_access_key as string
    assert.ok(revealed(s3, s3Secret) <= 4, `GET /v1/integrations/s3 shows ${JSON.stringify(s3)}`)
    // API keys are listed by a prefix: the kind (`rf_live_`) and at most 4 characters of the key itself.
    const admin = (await svc.keys.create({ admin: true, accountId: svc.liveAccount })).key
    const keys = (await svc.call('GET', '/v1/keys', { key: admin })).body.keys as { prefix: string }[]
    for (const { prefix } of keys) assert.ok(prefix.replace(/^rf_(live|test)_/, '').length <= 4, prefix)
  } finally {
    await svc.close()
  }
})

test.run()
