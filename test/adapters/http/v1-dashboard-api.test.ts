import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { titleEdit, testService } from '../../helpers/service.js'

// The routes the dashboard reads: lists, `?data=true`, validation without rendering, who-am-I, key admin.

const lists = suite('list routes')
lists("GET /v1/render lists this account's renders newest first, filters by status, pages with before", async () => {
  const svc = await testService()
  const ids: string[] = []
  for (let i = 0; i < 3; i++) {
    ids.push((await svc.call('POST', '/v1/render', { body: titleEdit(1) })).body.jobId)
    await new Promise((r) => setTimeout(r, 5)) // distinct created_at
  }
  await svc.call('POST', '/v1/render', { key: svc.sandbox, body: titleEdit(1) })
  const all = await svc.call('GET', '/v1/render')
  assert.is(all.status, 200)
  assert.equal(
    all.body.renders.map((r: { id: string }) => r.id),
    [...ids].reverse(),
    'only this account, newest first',
  )
  assert.is(all.body.next, null)
  const page = await svc.call('GET', '/v1/render?limit=2')
  assert.is(page.body.renders.length, 2)
  const rest = await svc.call('GET', `/v1/render?limit=2&before=${encodeURIComponent(page.body.next)}`)
  assert.equal(
    rest.body.renders.map((r: { id: string }) => r.id),
    [ids[0]],
  )
  assert.is((await svc.call('GET', '/v1/render?status=COMPLETE')).body.renders.length, 0)
  assert.is((await svc.call('GET', '/v1/render?status=QUEUED')).body.renders.length, 3)
  const bad = await svc.call('GET', '/v1/render?status=DONE&limit=2')
  assert.is(bad.status, 400)
  assert.equal(bad.body.error.issues, [{ path: 'status', message: 'must be one of QUEUED, PROCESSING, COMPLETE, FAILED' }])
  const badLimit = await svc.call('GET', '/v1/render?limit=0')
  assert.is(badLimit.status, 400)
  assert.is(badLimit.body.error.issues[0].path, 'limit')
  await svc.close()
})

lists('GET /v1/render/:id?data=true adds the submitted edit; without it the status has no data', async () => {
  const svc = await testService()
  const edit = titleEdit(1)
  const id = (await svc.call('POST', '/v1/render', { body: edit })).body.jobId
  assert.is((await svc.call('GET', `/v1/render/${id}`)).body.data, undefined)
  assert.equal((await svc.call('GET', `/v1/render/${id}?data=true`)).body.data, edit)
  await svc.close()
})

lists("GET /v1/ai/image lists this account's images; deliveries filter by event", async () => {
  const svc = await testService()
  const made = await svc.call('POST', '/v1/ai/image', { key: svc.sandbox, body: { prompt: 'a red fox', model: 'flux', width: 512, height: 512 } })
  assert.is(made.status, 200, JSON.stringify(made.body))
  const listed = await svc.call('GET', '/v1/ai/image', { key: svc.sandbox })
  assert.equal(
    listed.body.images.map((i: { id: string }) => i.id),
    [made.body.id],
  )
  assert.is((await svc.call('GET', '/v1/ai/image')).body.images.length, 0, 'another account sees none')
  await svc.call('PUT', '/v1/webhooks', { body: { url: 'https://example.com/h', events: ['render.queued', 'wallet.deposit'], secret: 'a-secret-of-16-chars' } })
  await svc.call('POST', '/v1/render', { body: titleEdit(1) })
  const queued = await svc.call('GET', '/v1/webhooks/deliveries?event=render.queued')
  assert.ok(queued.body.deliveries.length >= 1)
  assert.ok(queued.body.deliveries.every((d: { event: string }) => d.event === 'render.queued'))
  assert.is((await svc.call('GET', '/v1/webhooks/deliveries?event=wallet.deposit')).body.deliveries.length, 0)
  await svc.close()
})
lists.run()

const validate = suite('POST /v1/render/validate')
validate('a valid edit is valid; a bad one lists its issues with paths; limits count; nothing is stored or held', async () => {
  const svc = await testService({ config: { limits: { durationSandbox: 5 } as never } })
  const before = (await svc.call('GET', '/v1/wallet')).body
  const ok = await svc.call('POST', '/v1/render/validate', { body: titleEdit(1) })
  assert.equal(ok.body, { valid: true, issues: [], warnings: [] })
  const edit = titleEdit(1) as any
  edit.timeline.tracks[0].clips[0].length = -2
  edit.output.format = 'avi'
  const bad = await svc.call('POST', '/v1/render/validate', { body: edit })
  assert.is(bad.status, 200)
  assert.is(bad.body.valid, false)
  const paths = bad.body.issues.map((i: { path: string }) => i.path)
  assert.ok(paths.includes('timeline.tracks[0].clips[0].length'), paths.join())
  assert.ok(paths.includes('output.format'), paths.join())
  const long = await svc.call('POST', '/v1/render/validate', { key: svc.sandbox, body: titleEdit(30) })
  assert.is(long.body.valid, false, 'the sandbox duration limit applies')
  assert.match(JSON.stringify(long.body.issues), /600|5/)
  assert.is((await svc.call('GET', '/v1/render')).body.renders.length, 0, 'nothing stored')
  assert.equal((await svc.call('GET', '/v1/wallet')).body, before, 'nothing held')
  assert.is(
    (await svc.call('POST', '/v1/render/validate', { raw: '{"timeline":', headers: { 'content-type': 'application/json' } })).status,
    400,
    'broken JSON is still a 400',
  )
  await svc.close()
})
validate.run()

const keys = suite('/v1/me and /v1/keys')
keys('me says who the key is and the y axis; key routes are admin-only; create shows the key once; revoke stops it at once', async () => {
  const svc = await testService()
  const me = await svc.call('GET', '/v1/me')
  assert.equal(me.body, { account_id: svc.liveAccount, key_id: me.body.key_id, sandbox: false, admin: false, y_axis: 'down' })
  assert.is((await svc.call('GET', '/v1/keys')).status, 403)
  assert.is((await svc.call('POST', '/v1/keys', { body: {} })).status, 403)
  const admin = (await svc.keys.create({ admin: true })).key
  const listed = await svc.call('GET', '/v1/keys', { key: admin })
  assert.is(listed.body.keys.length, 3)
  assert.not.match(JSON.stringify(listed.body), /rf_live_[A-Za-z0-9]{40}/, 'no clear keys in the list')
  const made = await svc.call('POST', '/v1/keys', { key: admin, body: { sandbox: true, account_id: svc.liveAccount } })
  assert.is(made.status, 201)
  assert.match(made.body.key, /^rf_test_/)
  assert.is(made.body.account_id, svc.liveAccount)
  assert.is(made.body.signing_secret, undefined, 'an existing account keeps its secret')
  assert.is((await svc.call('GET', '/v1/me', { key: made.body.key })).body.sandbox, true)
  const fresh = await svc.call('POST', '/v1/keys', { key: admin, body: {} })
  assert.match(fresh.body.signing_secret, /^whsec_/, 'a new account gets its signing secret once')
  assert.is((await svc.call('POST', '/v1/keys', { key: admin, body: { admin: 'yes' } })).body.error.issues[0].path, 'admin')
  assert.is((await svc.call('POST', '/v1/keys', { key: admin, body: { account_id: '00000000-0000-4000-8000-000000000000' } })).status, 404)
  const revoked = await svc.call('DELETE', `/v1/keys/${made.body.id}`, { key: admin })
  assert.is(revoked.status, 200)
  assert.ok(revoked.body.revoked_at)
  assert.is((await svc.call('GET', '/v1/me', { key: made.body.key })).status, 401, 'revoked at once')
  assert.is((await svc.call('DELETE', `/v1/keys/${made.body.id}`, { key: admin })).status, 409)
  const self = (await svc.call('GET', '/v1/me', { key: admin })).body.key_id
  assert.is((await svc.call('DELETE', `/v1/keys/${self}`, { key: admin })).status, 409, 'no locking yourself out')
  assert.is((await svc.call('DELETE', '/v1/keys/nope', { key: admin })).status, 404)
  await svc.close()
  // y_axis is the installation's /v1 setting (`serve --y-axis`), the same for every key.
  const up = await testService({ config: { yAxis: 'up' } })
  assert.is((await up.call('GET', '/v1/me')).body.y_axis, 'up')
  await up.close()
})

keys('the dashboard page and its assets are served without a key, with a CSP; no path escapes the bundle', async () => {
  const svc = await testService()
  const page = await svc.app.request('/dashboard')
  assert.is(page.status, 200)
  assert.match(page.headers.get('content-type')!, /text\/html/)
  assert.match(page.headers.get('content-security-policy')!, /script-src 'self'/)
  const html = await page.text()
  assert.match(html, /\/dashboard\/assets\/app\.js/)
  const js = await svc.app.request('/dashboard/assets/app.js')
  assert.is(js.status, 200)
  assert.match(js.headers.get('content-type')!, /javascript/)
  assert.ok((await js.text()).length > 10_000)
  assert.is((await svc.app.request('/dashboard/assets/..%2F..%2Fpackage.json')).status, 404)
  assert.is((await svc.app.request('/dashboard/assets/nope.js')).status, 404)
  await svc.close()
})
keys.run()
