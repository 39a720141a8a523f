import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { testService } from '../../helpers/service.js'

// Saved templates on /v1: per account and per environment (sandbox keys see sandbox templates only),
// validated on save like a render, rendered through the one submission path (service/templates/).

const svc = await testService({ start: true })
const sandbox = (await svc.keys.create({ sandbox: true, accountId: svc.liveAccount })).key
const stranger = (await svc.keys.create()).key

/** A template with two merge fields; LENGTH fills a numeric field, so it must take the value's type. */
const template = () => ({
  timeline: { background: '#000000', tracks: [{ clips: [{ asset: { type: 'title', text: 'Hi {{ NAME }}' }, start: 0, length: '{{LENGTH}}' }] }] },
  output: { format: 'mp4', size: { width: 160, height: 90 }, fps: 25 },
  merge: [
    { find: 'NAME', replace: 'world' },
    { find: 'LENGTH', replace: 1 },
  ],
})
const create = async (key = svc.live, name = 'card') => {
  const r = await svc.call('POST', '/v1/templates', { key, body: { name, template: template() } })
  assert.is(r.status, 201, JSON.stringify(r.body))
  return r.body
}
const paths = (r: { body: any }) => (r.body.error?.issues ?? []).map((i: { path: string }) => i.path)

const crud = suite('templates: CRUD')
crud('create → read → list → update → delete, with merge fields listed on read', async () => {
  const made = await create()
  assert.match(made.id, /^[0-9a-f]{8}-[0-9a-f]{4}-7/)
  assert.equal(made.template, template())
  const got = await svc.call('GET', `/v1/templates/${made.id}`)
  assert.is(got.status, 200)
  assert.equal(got.body.merge_fields, [
    { find: 'NAME', fields: ['timeline.tracks[0].clips[0].asset.text'] },
    { find: 'LENGTH', fields: ['timeline.tracks[0].clips[0].length'] },
  ])
  assert.equal(got.body.template, template())
  const list = (await svc.call('GET', '/v1/templates')).body.templates
  const listed = list.find((t: any) => t.id === made.id)
  assert.equal(Object.keys(listed).sort(), ['created_at', 'id', 'name', 'updated_at'])

  const renamed = await svc.call('PUT', `/v1/templates/${made.id}`, { body: { name: 'renamed' } })
  assert.is(renamed.status, 200)
  assert.is(renamed.body.name, 'renamed')
  assert.equal(renamed.body.template, template(), 'a rename keeps the template')
  const edited = template()
  edited.timeline.tracks[0]!.clips[0]!.asset.text = '{{ GREETING }}'
  const changed = await svc.call('PUT', `/v1/templates/${made.id}`, { body: { template: edited } })
  assert.equal(
    changed.body.merge_fields.map((f: { find: string }) => f.find),
    ['GREETING', 'LENGTH'],
  )
  assert.equal((await svc.call('GET', `/v1/templates/${made.id}`)).body.template, edited)

  assert.is((await svc.call('DELETE', `/v1/templates/${made.id}`)).status, 200)
  assert.is((await svc.call('GET', `/v1/templates/${made.id}`)).status, 404)
  assert.is((await svc.call('DELETE', `/v1/templates/${made.id}`)).status, 404)
})
crud('a bad template is a 400 naming the path inside `template`, and nothing is stored', async () => {
  const before = (await svc.call('GET', '/v1/templates')).body.templates.length
  const bad = template() as any
  bad.timeline.tracks[0].clips[0].start = 'soon'
  const r = await svc.call('POST', '/v1/templates', { body: { name: 'bad', template: bad } })
  assert.is(r.status, 400)
  assert.ok(paths(r).includes('template.timeline.tracks[0].clips[0].start'), JSON.stringify(r.body))
  assert.is((await svc.call('GET', '/v1/templates')).body.templates.length, before)
  const made = await create()
  const put = await svc.call('PUT', `/v1/templates/${made.id}`, { body: { template: { ...template(), output: { format: 'mp4', fps: 7 } } } })
  assert.is(put.status, 400)
  assert.ok(paths(put).includes('template.output.fps'), JSON.stringify(put.body))
})
crud('bodies are strict: unknown, missing and empty fields are 400s naming them', async () => {
  assert.equal(paths(await svc.call('POST', '/v1/templates', { body: { name: 'x', template: template(), extra: 1 } })), ['extra'])
  assert.equal(paths(await svc.call('POST', '/v1/templates', { body: { template: template() } })), ['name'])
  assert.equal(paths(await svc.call('POST', '/v1/templates', { body: { name: ' ', template: template() } })), ['name'])
  const made = await create()
  assert.is((await svc.call('PUT', `/v1/templates/${made.id}`, { body: {} })).status, 400)
  const render = await svc.call('POST', `/v1/templates/${made.id}/render`, { body: { merge: [{ find: '', replace: 1 }] } })
  assert.equal(paths(render), ['merge[0].find'])
})
crud.run()

const scope = suite('templates: who sees what')
scope('sandbox and live templates of one account are separate environments, both ways', async () => {
  const live = await create(svc.live, 'live one')
  const test = await create(sandbox, 'sandbox one')
  for (const [key, own, foreign] of [
    [svc.live, live, test],
    [sandbox, test, live],
  ]) {
    const ids = (await svc.call('GET', '/v1/templates', { key })).body.templates.map((t: any) => t.id)
    assert.ok(ids.includes(own.id) && !ids.includes(foreign.id))
    assert.is((await svc.call('GET', `/v1/templates/${foreign.id}`, { key })).status, 404)
    assert.is((await svc.call('PUT', `/v1/templates/${foreign.id}`, { key, body: { name: 'taken' } })).status, 404)
    assert.is((await svc.call('POST', `/v1/templates/${foreign.id}/render`, { key, body: {} })).status, 404)
    assert.is((await svc.call('DELETE', `/v1/templates/${foreign.id}`, { key })).status, 404)
  }
})
scope("another account's template is a 404, like a missing one", async () => {
  const mine = await create()
  for (const [method, body] of [['GET'], ['PUT', { name: 'x' }], ['DELETE'], ['POST', {}]] as const) {
    const path = method === 'POST' ? `/v1/templates/${mine.id}/render` : `/v1/templates/${mine.id}`
    const r = await svc.call(method, path, { key: stranger, body })
    assert.is(r.status, 404, `${method}: ${JSON.stringify(r.body)}`)
  }
  assert.is((await svc.call('GET', '/v1/templates', { key: stranger })).body.templates.length, 0)
  assert.is((await svc.call('GET', `/v1/templates/${mine.id}`)).status, 200, 'still there for its owner')
})
scope.run()

const render = suite('templates: render')
render("merge values override the template's own; output fields override; the job renders them", async () => {
  const made = await create()
  const r = await svc.call('POST', `/v1/templates/${made.id}/render`, { body: { merge: [{ find: 'LENGTH', replace: 2 }], output: { fps: 30 } } })
  assert.is(r.status, 201, JSON.stringify(r.body))
  assert.equal(Object.keys(r.body).sort(), ['jobId', 'status', 'warnings'])
  const done = await svc.waitFor(r.body.jobId, ['COMPLETE', 'FAILED'])
  assert.is(done.status, 'COMPLETE', done.error)
  assert.is(done.duration, 2, 'the merged LENGTH, not the default 1')
  const data = (await svc.call('GET', `/v1/render/${r.body.jobId}?data=true`)).body.data
  assert.equal(data.merge, [
    { find: 'NAME', replace: 'world' },
    { find: 'LENGTH', replace: 2 },
  ])
  assert.equal(data.output, { format: 'mp4', size: { width: 160, height: 90 }, fps: 30 })
})
render('the render path checks the result: a private callback is a 400 naming `callback`', async () => {
  const made = await create()
  const r = await svc.call('POST', `/v1/templates/${made.id}/render`, { body: { callback: 'http://10.0.0.1/hook' } })
  assert.is(r.status, 400)
  assert.equal(paths(r), ['callback'])
})
render.after(() => svc.close())
render.run()
