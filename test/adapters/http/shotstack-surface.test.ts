import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { testService, titleEdit } from '../../helpers/service.js'

// Shotstack's surface (`serve --shotstack`) in process: which key reaches which environment, what replaced the
// Bearer aliases, template updates, and that every answer, refusals and unknown paths included, keeps the shape
// Shotstack's SDKs read (`{ success, message, response }`; the Ingest API's `{ errors: [...] }`), not /v1's.

const svc = await testService({ config: { shotstack: true } })
const live = { 'x-api-key': svc.live }
const sandbox = { 'x-api-key': svc.sandbox }
const call = async (method: string, path: string, headers: Record<string, string>, body?: unknown) => {
  const init = body === undefined ? {} : { body: JSON.stringify(body), headers: { ...headers, 'content-type': 'application/json' } }
  const res = await svc.app.request(path, { method, headers, ...init })
  return { status: res.status, body: (await res.json()) as any }
}
/** Shotstack's Edit/Serve refusal: exactly its three keys, the HTTP reason as `message`, words in `response`. */
function refused(r: { status: number; body: any }, status: number, reason: string, words: RegExp) {
  assert.is(r.status, status, JSON.stringify(r.body))
  assert.equal(Object.keys(r.body).sort(), ['message', 'response', 'success'])
  assert.equal([r.body.success, r.body.message], [false, reason])
  assert.match(r.body.response, words)
}
const jobs = async () => (await svc.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM jobs'))!.n

const auth = suite("who may call Shotstack's surface")
auth('with --shotstack the Bearer aliases are gone: /edit/v1, /edit/stage, /stage answer 401 as Shotstack, store nothing', async () => {
  const before = await jobs()
  for (const path of ['/edit/v1/render', '/edit/stage/render', '/stage/render']) {
    const r = await call('POST', path, { authorization: `Bearer ${svc.live}` }, titleEdit())
    refused(r, 401, 'Unauthorized', /send the key as x-api-key; Bearer is for \/v1/)
  }
  assert.is(await jobs(), before)
})
auth('no auth header is 401; a live key on stage paths and a sandbox key on v1 paths are 403', async () => {
  refused(await call('GET', '/edit/v1/templates', {}), 401, 'Unauthorized', /^missing x-api-key header$/)
  for (const path of ['/edit/stage/templates', '/stage/templates', '/serve/stage/assets/x'])
    refused(await call('GET', path, live), 403, 'Forbidden', /production key works on the v1 environment only/)
  refused(await call('GET', '/edit/v1/templates', sandbox), 403, 'Forbidden', /sandbox key works on the stage environment only/)
  refused(await call('GET', '/edit/v1/templates', { 'x-api-key': 'rf_live_nope' }), 403, 'Forbidden', /invalid or revoked/)
  // The Ingest API refuses in its own shape, as its SDK class reads it.
  const ingest = await call('GET', '/ingest/stage/sources', live)
  assert.is(ingest.status, 403)
  assert.equal(Object.keys(ingest.body), ['errors'])
  assert.equal([ingest.body.errors[0].status, ingest.body.errors[0].title], ['403', 'Forbidden'])
})
auth('a sandbox key works on every stage API: a render through /edit/stage, its assets on /serve/stage, /ingest/stage', async () => {
  const queued = await call('POST', '/edit/stage/render', sandbox, titleEdit())
  assert.is(queued.status, 201, JSON.stringify(queued.body))
  const id = queued.body.response.id
  const status = await call('GET', `/stage/render/${id}`, sandbox)
  assert.equal([status.body.response.status, status.body.response.plan], ['queued', 'sandbox'])
  assert.equal(await call('GET', `/serve/stage/assets/render/${id}`, sandbox), { status: 200, body: { data: [] } }, 'not served before it is done')
  assert.equal(await call('GET', '/ingest/stage/sources', sandbox), { status: 200, body: { data: [] } })
})
auth.run()

const templates = suite('PUT /edit/v1/templates/{id}')
templates('an update is what GET and the list show next; a bad one names its field and changes nothing', async () => {
  const created = await call('POST', '/edit/v1/templates', live, { name: 'menu', template: titleEdit(1) })
  assert.is(created.status, 201, JSON.stringify(created.body))
  const id = created.body.response.id
  const put = await call('PUT', `/edit/v1/templates/${id}`, live, { name: 'menu v2', template: titleEdit(3) })
  assert.equal(put, { status: 200, body: { success: true, message: 'OK', response: { message: 'Template Successfully Updated', id } } })
  const read = (await call('GET', `/edit/v1/templates/${id}`, live)).body.response
  assert.equal([read.name, read.template.timeline.tracks[0].clips[0].length], ['menu v2', 3])
  const listed = (await call('GET', '/edit/v1/templates', live)).body.response.templates
  assert.is(listed.find((t: any) => t.id === id).name, 'menu v2')

  refused(await call('PUT', `/edit/v1/templates/${id}`, live, { template: titleEdit(1, { fps: 7 }) }), 400, 'Bad Request', /template\.output\.fps/)
  assert.is((await call('GET', `/edit/v1/templates/${id}`, live)).body.response.template.output.fps, 25)
  // Another account's key (the sandbox one) cannot see it to change it.
  refused(await call('PUT', `/edit/stage/templates/${id}`, sandbox, { name: 'theirs' }), 404, 'Not Found', /no template/)
  assert.is((await call('GET', `/edit/v1/templates/${id}`, live)).body.response.name, 'menu v2')
})
templates.run()

const shapes = suite("Shotstack's shapes for what it does not do")
shapes("unknown paths and methods under Shotstack's prefixes are its 404; /v1 keeps its own", async () => {
  for (const [method, path] of [
    ['GET', '/edit/v1/nothing'],
    ['GET', '/stage/nothing/deeper'],
    ['PATCH', '/edit/v1/templates/x'],
    ['GET', '/serve/stage/nothing'],
  ])
    refused(await call(method!, path!, live), 404, 'Not Found', new RegExp(`no route ${method} ${path}`))
  const ingest = await call('GET', '/ingest/v1/nothing', live)
  assert.equal(ingest, { status: 404, body: { errors: [{ status: '404', title: 'Not Found', detail: 'no route GET /ingest/v1/nothing' }] } })
  const v1 = await call('GET', '/v1/nothing', { authorization: `Bearer ${svc.live}` })
  assert.equal([v1.status, v1.body.error.code], [404, 'E_NOT_FOUND'])
})
shapes.after(() => svc.close())
shapes.run()
