import { randomUUID } from 'node:crypto'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { registeredRoutes, type RouteSpec } from '../../../adapters/http/route.js'
import { testService, type TestService } from '../../helpers/service.js'

// Access is declared on each route spec and enforced by `register`. These tests are generated from the
// table the app registered, so a new route is covered without a new test: every keyed route refuses a
// missing, malformed, wrong or revoked key (401), admin routes refuse other keys and live-only routes refuse
// sandbox keys (403) — before the body is even read — and the OpenAPI document says exactly that.

const svc = await testService()
const account = svc.liveAccount
const keys = {
  live: svc.live,
  sandbox: (await svc.keys.create({ sandbox: true, accountId: account })).key,
  admin: (await svc.keys.create({ admin: true, accountId: account })).key,
  // Admin, so on admin routes it is the live rule, not the admin rule, that refuses it.
  sandboxAdmin: (await svc.keys.create({ sandbox: true, admin: true, accountId: account })).key,
  // Revoked while it was the strongest key there is: only the revocation can refuse it.
  revoked: await (async () => {
    const made = await svc.keys.create({ admin: true, accountId: account })
    await svc.keys.revoke(made.record.keyId)
    return made.key
  })(),
}

const routes = registeredRoutes(svc.app)
type Keyed = Extract<RouteSpec, { auth: 'key' | 'admin' }>
const keyed = routes.filter((r): r is Keyed => r.auth !== 'none')
/** Every path a route answers on, `:params` filled with fresh UUIDs (nothing exists there). */
const urls = (r: RouteSpec) => [r.path, ...(r.aliases ?? [])].map((p) => p.replace(/:\w+/g, () => randomUUID()))
const hasBody = (r: RouteSpec) => r.method === 'post' || r.method === 'put'
/** A body no route accepts: access must be refused before it is read. */
const BROKEN: { raw?: string; headers?: Record<string, string> } = { raw: '{"not json', headers: { 'content-type': 'application/json' } }

type Answer = Awaited<ReturnType<TestService['call']>>
const refused = (res: Answer, status: number, code: string, what: string, message?: RegExp) => {
  assert.is(res.status, status, `${what}: ${JSON.stringify(res.body)}`)
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/, what)
  assert.equal(Object.keys(res.body), ['error'], what)
  assert.is(res.body.error.code, code, what)
  assert.type(res.body.error.message, 'string', what)
  if (message) assert.match(res.body.error.message, message, what)
}

const table = suite('the route table')
table('the app registered its routes, and most of them need a key', () => {
  assert.ok(routes.length >= 25, `${routes.length} routes`)
  assert.ok(keyed.length >= 20, `${keyed.length} keyed routes`)
  assert.ok(keyed.some((r) => r.auth === 'admin') && keyed.some((r) => r.live), 'admin and live-only routes exist')
})
// Public routes whose URL is itself the credential (a one-time token, like a presigned URL): they refuse a
// wrong or expired one with 403, which the document must say.
const CAPABILITY_URLS = ['PUT /v1/upload/:id']
table('the OpenAPI document declares exactly the access that is enforced', async () => {
  const doc = (await svc.call('GET', '/v1/openapi.json', { key: null })).body
  for (const r of routes) {
    const op = doc.paths[r.path.replace(/:(\w+)/g, '{$1}')][r.method]
    const what = `${r.method.toUpperCase()} ${r.path}`
    assert.is(op.security?.length === 0, r.auth === 'none', `${what}: security`)
    assert.is('401' in op.responses, r.auth !== 'none', `${what}: 401`)
    const capability = CAPABILITY_URLS.includes(what)
    assert.is('403' in op.responses, capability || r.auth === 'admin' || (r.auth === 'key' && r.live !== undefined), `${what}: 403`)
  }
})
table('public routes are exactly these, and answer without a key', async () => {
  // The one list to extend by hand: making a route public is a decision, not a default.
  const PUBLIC = [
    'GET /healthz',
    'GET /metrics',
    'GET /readyz',
    'GET /v1/files/:job/:name',
    'GET /v1/openapi.json',
    'HEAD /v1/files/:job/:name',
    ...CAPABILITY_URLS,
  ]
  assert.equal(
    routes
      .filter((r) => r.auth === 'none')
      .map((r) => `${r.method.toUpperCase()} ${r.path}`)
      .sort(),
    PUBLIC,
  )
  for (const r of routes.filter((r) => r.auth === 'none')) {
    for (const url of urls(r)) assert.is.not((await svc.call(r.method.toUpperCase(), url, { key: null })).status, 401, `${r.method} ${url}`)
  }
})
table.run()

const unauthenticated = suite('every keyed route: 401 without a working key')
for (const r of keyed) {
  unauthenticated(`${r.method.toUpperCase()} ${r.path}`, async () => {
    const method = r.method.toUpperCase()
    const body = hasBody(r) ? BROKEN : {}
    for (const url of urls(r)) {
      const cases: [string, Parameters<TestService['call']>[2]][] = [
        ['no key', { key: null, ...body }],
        ['no key, with an Idempotency-Key', { key: null, raw: body.raw, headers: { ...body.headers, 'idempotency-key': randomUUID() } }],
        ['x-api-key only', { key: null, raw: body.raw, headers: { ...body.headers, 'x-api-key': keys.admin } }],
        [
          'a Basic header',
          { key: null, raw: body.raw, headers: { ...body.headers, authorization: `Basic ${Buffer.from(`${keys.admin}:`).toString('base64')}` } },
        ],
        ['Bearer with no key', { key: null, raw: body.raw, headers: { ...body.headers, authorization: 'Bearer' } }],
        ['a wrong key', { key: `rf_live_${randomUUID().replaceAll('-', '')}`, ...body }],
        ['a revoked admin key', { key: keys.revoked, ...body }],
      ]
      for (const [what, opts] of cases) refused(await svc.call(method, url, opts), 401, 'E_UNAUTHORIZED', `${method} ${url}, ${what}`)
    }
  })
}
unauthenticated.run()

const unauthorized = suite('admin and live-only routes: 403 for the wrong kind of key')
for (const r of keyed.filter((r) => r.auth === 'admin' || r.live !== undefined)) {
  unauthorized(`${r.method.toUpperCase()} ${r.path}${r.auth === 'admin' ? ' (admin)' : ''}${r.live ? ' (live only)' : ''}`, async () => {
    const method = r.method.toUpperCase()
    const body = hasBody(r) ? BROKEN : {}
    for (const url of urls(r)) {
      if (r.auth === 'admin') {
        refused(await svc.call(method, url, { key: keys.live, ...body }), 403, 'E_FORBIDDEN', `${method} ${url}, a live key`, /needs an admin key/)
        refused(await svc.call(method, url, { key: keys.sandbox, ...body }), 403, 'E_FORBIDDEN', `${method} ${url}, a sandbox key`, /needs an admin key/)
      }
      if (r.live !== undefined) {
        const key = r.auth === 'admin' ? keys.sandboxAdmin : keys.sandbox
        const said = new RegExp(`^sandbox keys cannot ${r.live.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}; use a live key`)
        refused(await svc.call(method, url, { key, ...body }), 403, 'E_FORBIDDEN', `${method} ${url}, a sandbox key`, said)
      }
    }
  })
}
unauthorized.run()

const allowed = suite('every keyed route lets the keys it declares through')
for (const r of keyed) {
  // The weakest key the spec allows: a sandbox key unless live-only, an admin key only where needed.
  const key = r.auth === 'admin' ? (r.live ? keys.admin : keys.sandboxAdmin) : r.live ? keys.live : keys.sandbox
  allowed(`${r.method.toUpperCase()} ${r.path}`, async () => {
    for (const url of urls(r)) {
      const res = await svc.call(r.method.toUpperCase(), url, { key, ...(hasBody(r) ? { body: {} } : {}) })
      assert.ok(res.status !== 401 && res.status !== 403, `${r.method} ${url}: ${res.status} ${JSON.stringify(res.body)}`)
    }
  })
}
allowed.after(() => svc.close())
allowed.run()
