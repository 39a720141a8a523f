import { mkdirSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { startServer } from '../../../adapters/http/serve.js'
import { defaultConfig, filesDir } from '../../../service/config.js'
import { tempDir } from '../../helpers/media.js'
import { testService, titleEdit } from '../../helpers/service.js'

// Findings of a second outside pass (curl as a stranger and as a hostile client), each a test that failed first.

const test = suite('outside pass')
type Issue = { path: string; message: string }
const paths = (r: { body: any }) => (r.body.error?.issues ?? r.body.issues ?? []).map((i: Issue) => i.path)

test('validate refuses the callback that a submission refuses (it said valid: true)', async () => {
  const svc = await testService()
  for (const callback of ['http://169.254.169.254/latest', 'ftp://example.com/x']) {
    const body = { ...titleEdit(1), callback }
    const submitted = await svc.call('POST', '/v1/render', { body })
    assert.is(submitted.status, 400, JSON.stringify(submitted.body))
    const checked = await svc.call('POST', '/v1/render/validate', { body })
    assert.is(checked.status, 200)
    assert.is(checked.body.valid, false, `${callback}: ${JSON.stringify(checked.body)}`)
    assert.equal(paths(checked), ['callback'])
  }
  await svc.close()
})

test('GET /v1/render?before= that is not a time is a 400 naming before (it listed everything, or nothing)', async () => {
  const svc = await testService()
  const { body } = await svc.call('POST', '/v1/render', { body: titleEdit(1) })
  for (const before of ['garbage', "';DROP", '2026-13-45T00:00:00Z']) {
    const r = await svc.call('GET', `/v1/render?before=${encodeURIComponent(before)}`)
    assert.is(r.status, 400, `${before}: ${JSON.stringify(r.body)}`)
    assert.is(r.body.error.code, 'E_VALIDATION')
    assert.equal(paths(r), ['before'])
  }
  // What `next` hands out still pages: a created_at, and the page before it.
  const created = (await svc.call('GET', `/v1/render/${body.jobId}`)).body.created_at
  assert.is((await svc.call('GET', `/v1/render?before=${encodeURIComponent(created)}`)).body.renders.length, 0)
  const later = new Date(Date.parse(created) + 1000).toISOString()
  assert.is((await svc.call('GET', `/v1/render?before=${encodeURIComponent(later)}`)).body.renders.length, 1)
  await svc.close()
})

test('ledger ?before= past the largest id is a 400, not a 500 (PostgreSQL bigint overflow)', async () => {
  const svc = await testService()
  for (const before of ['99999999999999999999', '9223372036854775808', '9007199254740993']) {
    const r = await svc.call('GET', `/v1/wallet/ledger?before=${before}`)
    assert.is(r.status, 400, `${before}: ${JSON.stringify(r.body)}`)
    assert.equal(paths(r), ['before'])
  }
  assert.is((await svc.call('GET', '/v1/wallet/ledger?before=9007199254740991')).status, 200)
  await svc.close()
})

test('limit accepts decimal digits only (0x10 was taken as 16)', async () => {
  const svc = await testService()
  for (const limit of ['0x10', '1e1', '%2010', '+5']) {
    const r = await svc.call('GET', `/v1/render?limit=${limit}`)
    assert.is(r.status, 400, `${limit}: ${JSON.stringify(r.body)}`)
    assert.equal(paths(r), ['limit'])
  }
  assert.is((await svc.call('GET', '/v1/render?limit=10')).status, 200)
  await svc.close()
})

test('a boolean query is true/1 or false/0; anything else is a 400 naming it (`?data=yes` was silently false)', async () => {
  const svc = await testService({ config: { shotstack: true } })
  const { body } = await svc.call('POST', '/v1/render', { body: titleEdit(1) })
  for (const data of ['yes', 'TRUE', '2']) {
    const r = await svc.call('GET', `/v1/render/${body.jobId}?data=${data}`)
    assert.is(r.status, 400, `${data}: ${JSON.stringify(r.body)}`)
    assert.equal(paths(r), ['data'])
  }
  assert.ok((await svc.call('GET', `/v1/render/${body.jobId}?data=1`)).body.data, '1 is true')
  // Shotstack's `data` defaults to true and `data=false` leaves the edit out; a bad value keeps its envelope.
  const shotstack = (query: string) => svc.app.request(`/edit/v1/render/${body.jobId}${query}`, { headers: { 'x-api-key': svc.live } })
  assert.ok(((await (await shotstack('')).json()) as any).response.data, 'data by default')
  assert.is(((await (await shotstack('?data=false')).json()) as any).response.data, undefined)
  const bad = await shotstack('?merged=maybe')
  assert.is(bad.status, 400)
  assert.match(((await bad.json()) as any).response, /merged must be true or false/)
  await svc.close()
})

test('an Idempotency-Key on a POST without a body works (it answered 400 "a JSON body is required")', async () => {
  const svc = await testService()
  const headers = { 'idempotency-key': 'rotate-1' }
  const first = await svc.call('POST', '/v1/webhooks/secret', { headers })
  assert.is(first.status, 200, JSON.stringify(first.body))
  const again = await svc.call('POST', '/v1/webhooks/secret', { headers })
  assert.is(again.status, 200)
  assert.is(again.body.secret, first.body.secret, 'the repeat is the first answer, not a second rotation')
  assert.is(again.headers.get('idempotent-replayed'), 'true')
  const replay = await svc.call('POST', '/v1/webhooks/deliveries/msg_nope/replay', { headers: { 'idempotency-key': 'replay-1' } })
  assert.is(replay.status, 404, JSON.stringify(replay.body))
  await svc.close()
})

test('POST /v1/ai/image: a body that is not an object says so at the root, like every other route', async () => {
  const svc = await testService()
  for (const raw of ['[1,2]', 'null', '"hi"', '5']) {
    const r = await svc.call('POST', '/v1/ai/image', { raw, headers: { 'content-type': 'application/json' } })
    assert.is(r.status, 400, raw)
    assert.equal(paths(r), [''], `${raw}: ${JSON.stringify(r.body)}`)
    assert.match(r.body.error.message, /must be a JSON object/, raw)
    assert.match(r.body.error.message, /\(root\)/, raw)
  }
  await svc.close()
})

test('POST /v1/ai/image/batch names every bad item, not only the first', async () => {
  const svc = await testService()
  const r = await svc.call('POST', '/v1/ai/image/batch', { body: { requests: [{ prompt: 'a' }, { prompt: '' }, [1], 'x', { prompt: 'b', model: 'gpt' }] } })
  assert.is(r.status, 400)
  assert.equal(paths(r), ['requests[1].prompt', 'requests[2]', 'requests[3]', 'requests[4].model'], JSON.stringify(r.body))
  assert.is((await svc.call('GET', '/v1/ai/image')).body.images.length, 0, 'nothing stored')
  await svc.close()
})

test('a content type that only starts like application/json is a 415', async () => {
  const svc = await testService()
  for (const type of ['application/json-seq', 'application/jsonx', 'application/json5']) {
    const r = await svc.call('PUT', '/v1/wallet/threshold', { raw: '{"low_balance_threshold":5}', headers: { 'content-type': type } })
    assert.is(r.status, 415, type)
  }
  for (const type of ['application/json', 'application/json; charset=utf-8', 'Application/JSON', 'application/vnd.api+json', 'application/json-patch+json']) {
    const r = await svc.call('PUT', '/v1/wallet/threshold', { raw: '{"low_balance_threshold":5}', headers: { 'content-type': type } })
    assert.is(r.status, 200, type)
  }
  await svc.close()
})

test('an Authorization header in another scheme is told so, not called missing', async () => {
  const svc = await testService()
  for (const authorization of ['Basic dXNlcjpwYXNz', 'Bearer', 'Token abc']) {
    const r = await svc.call('GET', '/v1/me', { key: null, headers: { authorization } })
    assert.is(r.status, 401)
    assert.not.match(r.body.error.message, /missing/, authorization)
    assert.match(r.body.error.message, /Bearer <key>/, authorization)
  }
  assert.match((await svc.call('GET', '/v1/me', { key: null })).body.error.message, /missing Authorization/)
  await svc.close()
})

test("paging GET /v1/render with next loses no render that shares a millisecond with a page's last", async () => {
  const svc = await testService()
  for (let i = 0; i < 9; i++) await svc.call('POST', '/v1/render', { body: titleEdit(1) })
  // Three renders to a millisecond, as ~3,000 submissions/s give: a page cut inside one skipped the rest of it.
  const rows = await svc.db.all<{ id: string }>('SELECT id FROM jobs ORDER BY created_at')
  for (const [i, row] of rows.entries())
    await svc.db.run('UPDATE jobs SET created_at = ? WHERE id = ?', [`2026-01-01T00:00:00.00${Math.floor(i / 3)}Z`, row.id])
  const seen: string[] = []
  let next: string | null = ''
  for (let page = 0; next !== null && page < 10; page++) {
    const r = await svc.call('GET', `/v1/render?limit=2${next ? `&before=${encodeURIComponent(next)}` : ''}`)
    assert.is(r.status, 200, JSON.stringify(r.body))
    seen.push(...r.body.renders.map((j: { id: string }) => j.id))
    next = r.body.next
  }
  assert.is(seen.length, 9, 'every render once')
  assert.is(new Set(seen).size, 9)
  await svc.close()
})

test('an image src that is no image fails the job saying so, not "unsupported file type: undefined"', async () => {
  const svc = await testService({ start: true })
  const id = '00000000-0000-4000-8000-00000000abcd'
  mkdirSync(join(filesDir(svc.config), id), { recursive: true })
  writeFileSync(join(filesDir(svc.config), id, 'x.png'), Buffer.from('\u0000\u0000\u0000\u0018ftypmp42 not an image at all'))
  const edit = { ...titleEdit(1), timeline: { tracks: [{ clips: [{ asset: { type: 'image', src: `/v1/files/${id}/x.png` }, start: 0, length: 1 }] }] } }
  try {
    const { body } = await svc.call('POST', '/v1/render', { key: svc.sandbox, body: edit })
    const done = await svc.waitFor(body.jobId, ['COMPLETE', 'FAILED'], svc.sandbox)
    assert.is(done.status, 'FAILED')
    assert.match(done.error, /^timeline\.tracks\[0\]\.clips\[0\]\.asset\.src: not a readable image/)
    assert.not.match(done.error, /undefined/, done.error)
  } finally {
    await svc.close() // a started service left open keeps the process alive
  }
})

test.run()

const raw = suite('requests Node cannot parse')
raw('a malformed HTTP request gets the one error shape, not an empty 400', async () => {
  const server = await startServer(defaultConfig({ dataDir: tempDir('reelforge-raw-'), port: 0 }))
  try {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(server.url).port), '127.0.0.1')
      let text = ''
      socket
        .on('data', (d) => (text += d))
        .on('end', () => resolve(text))
        .on('error', reject)
      socket.write('PUT /v1/wallet/threshold HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: -1\r\n\r\n{}')
    })
    assert.match(answer, /^HTTP\/1\.1 400 /)
    assert.match(answer, /content-type: application\/json/i)
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))
    assert.is(body.error.code, 'E_BAD_REQUEST')
    assert.type(body.error.message, 'string')
  } finally {
    await server.close()
  }
})
raw.run()
