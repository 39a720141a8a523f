import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { lavfi, tempDir } from '../../helpers/media.js'
import { testService, titleEdit } from '../../helpers/service.js'

// Where Shotstack's surface answers as Shotstack does rather than as /v1 would: probe's `response.metadata`, an
// edit without `output` refused, and a malformed id a 400 (Shotstack's id pattern) while a well-formed unknown
// one stays 404 — each in the API's own envelope. /v1, and its Bearer aliases without --shotstack, keep theirs.

const svc = await testService({ config: { shotstack: true } })
const live = { 'x-api-key': svc.live }
const sandbox = { 'x-api-key': svc.sandbox }
const call = async (method: string, path: string, headers: Record<string, string>, body?: unknown) => {
  const init = body === undefined ? {} : { body: JSON.stringify(body), headers: { ...headers, 'content-type': 'application/json' } }
  const res = await svc.app.request(path, { method, headers, ...init })
  return { status: res.status, body: res.status === 204 ? null : ((await res.json()) as any) }
}
function refused(r: { status: number; body: any }, status: number, reason: string, words: RegExp) {
  assert.is(r.status, status, JSON.stringify(r.body))
  assert.equal(Object.keys(r.body).sort(), ['message', 'response', 'success'])
  assert.equal([r.body.success, r.body.message], [false, reason])
  assert.match(r.body.response, words)
}
const jobs = async () => (await svc.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM jobs'))!.n

const dir = tempDir()
const clip = readFileSync(await lavfi('testsrc2=s=320x240:d=1:r=25', join(dir, 'clip.mp4'), ['-c:v', 'libx264', '-pix_fmt', 'yuv420p']))
const host = createServer((req, res) => (req.url === '/clip.mp4' ? res.writeHead(200, { 'content-length': clip.length }).end(clip) : res.writeHead(404).end()))
await new Promise<void>((r) => host.listen(0, '127.0.0.1', r))
const clipUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}/clip.mp4`

const probe = suite('GET /edit/{v1,stage}/probe/{url}')
probe("ffprobe's JSON under response.metadata, with Shotstack's `ok`, on every Edit base", async () => {
  for (const [base, key] of [
    ['/edit/v1', live],
    ['/edit/stage', sandbox],
    ['/stage', sandbox],
  ] as const) {
    const r = await call('GET', `${base}/probe/${encodeURIComponent(clipUrl)}`, key)
    assert.is(r.status, 200, JSON.stringify(r.body))
    assert.equal([r.body.success, r.body.message, Object.keys(r.body.response)], [true, 'ok', ['metadata']], base)
    const { streams, format } = r.body.response.metadata
    assert.equal([streams[0].codec_type, streams[0].width, streams[0].height], ['video', 320, 240])
    assert.is(format.filename, clipUrl)
  }
})
probe('a refused URL is 400 in the Edit envelope naming `url`', async () => {
  refused(await call('GET', `/edit/v1/probe/${encodeURIComponent('http://10.0.0.1/clip.mp4')}`, live), 400, 'Bad Request', /^url: /)
})
probe('/v1/probe keeps its own shape: streams and format at the top', async () => {
  const r = await svc.call('GET', `/v1/probe?url=${encodeURIComponent(clipUrl)}`)
  assert.is(r.status, 200)
  assert.equal(Object.keys(r.body).sort(), ['format', 'streams'])
})
probe.run()

const output = suite('an edit without output')
output("is refused on Shotstack's surface (its schema requires it) naming `output`, and stores nothing", async () => {
  const { output: _o, ...noOutput } = titleEdit()
  const before = await jobs()
  for (const [path, key] of [
    ['/edit/v1/render', live],
    ['/edit/stage/render', sandbox],
    ['/stage/render', sandbox],
  ] as const)
    refused(await call('POST', path, key, noOutput), 400, 'Bad Request', /^output: is required/)
  assert.is(await jobs(), before)
  const withOutput = await call('POST', '/edit/v1/render', live, titleEdit())
  assert.is(withOutput.status, 201, JSON.stringify(withOutput.body))
})
output('a template whose edit has no output is refused too, on save and on update, naming `template.output`', async () => {
  const { output: _o, ...noOutput } = titleEdit()
  refused(await call('POST', '/edit/v1/templates', live, { name: 'no output', template: noOutput }), 400, 'Bad Request', /^template\.output: is required/)
  const saved = await call('POST', '/edit/v1/templates', live, { name: 'with output', template: titleEdit() })
  assert.is(saved.status, 201, JSON.stringify(saved.body))
  const id = saved.body.response.id
  refused(await call('PUT', `/edit/v1/templates/${id}`, live, { name: 'no output', template: noOutput }), 400, 'Bad Request', /^template\.output: is required/)
  assert.is((await call('PUT', `/edit/v1/templates/${id}`, live, { name: 'renamed' })).status, 200, 'an update without a template keeps the saved one')
})
output('is still accepted by /v1 (mp4 by default), with --shotstack and without it on the Bearer aliases', async () => {
  const { output: _o, ...noOutput } = titleEdit()
  assert.is((await svc.call('POST', '/v1/render', { body: noOutput })).status, 201)
  const plain = await testService()
  try {
    for (const path of ['/v1/render', '/edit/v1/render', '/stage/render']) assert.is((await plain.call('POST', path, { body: noOutput })).status, 201, path)
  } finally {
    await plain.close()
  }
})
output.run()

const ids = suite('ids on the path')
const UNKNOWN = '0190a6f2-1c2d-7e3f-8a4b-5c6d7e8f9a0b'
const EDIT_AND_SERVE: [string, string][] = [
  ['GET', '/edit/v1/render/:id'],
  ['GET', '/stage/render/:id'],
  ['GET', '/edit/v1/templates/:id'],
  ['PUT', '/edit/v1/templates/:id'],
  ['DELETE', '/edit/v1/templates/:id'],
  ['GET', '/serve/v1/assets/:id'],
  ['DELETE', '/serve/v1/assets/:id'],
  ['GET', '/serve/v1/assets/render/:id'],
]
ids('a malformed id is 400 naming `id` and the pattern, in the Edit/Serve envelope; a well-formed unknown one is 404', async () => {
  for (const [method, path] of EDIT_AND_SERVE) {
    const key = path.startsWith('/stage') ? sandbox : live
    const body = method === 'PUT' ? { name: 'x' } : undefined
    refused(await call(method, path.replace(':id', 'not-a-uuid'), key, body), 400, 'Bad Request', /^id: must be a UUID/)
    refused(await call(method, path.replace(':id', UNKNOWN), key, body), 404, 'Not Found', /no /)
  }
})
ids('on the Ingest API in its own error shape; its pattern (letters and digits, 8-4-4-4-12) decides', async () => {
  for (const method of ['GET', 'DELETE']) {
    const bad = await call(method, '/ingest/v1/sources/not-a-uuid', live)
    assert.is(bad.status, 400)
    assert.equal(Object.keys(bad.body), ['errors'])
    assert.equal([bad.body.errors[0].status, bad.body.errors[0].title], ['400', 'Bad Request'])
    assert.match(bad.body.errors[0].detail, /^id: must be/)
    // Shotstack's own ids match its pattern without being UUIDs: unknown here, so 404.
    assert.is((await call(method, '/ingest/v1/sources/zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz', live)).status, 404)
  }
})
ids('a known id still answers (the check lets real ids through, upper-case hex included)', async () => {
  const queued = await call('POST', '/edit/v1/render', live, titleEdit())
  const id: string = queued.body.response.id
  const r = await call('GET', `/edit/v1/render/${id.toUpperCase()}`, live)
  assert.is(r.status, 200, JSON.stringify(r.body))
  assert.is(r.body.response.id, id)
})
ids('/v1 keeps its 404 for a malformed id, with --shotstack and on the Bearer aliases without it', async () => {
  const r = await svc.call('GET', '/v1/render/not-a-uuid')
  assert.equal([r.status, r.body.error.code], [404, 'E_NOT_FOUND'])
  const plain = await testService()
  try {
    for (const path of ['/v1/render/not-a-uuid', '/edit/v1/render/not-a-uuid', '/stage/render/not-a-uuid']) {
      const a = await plain.call('GET', path)
      assert.equal([a.status, a.body.error.code], [404, 'E_NOT_FOUND'], path)
    }
  } finally {
    await plain.close()
  }
})
ids.after(async () => {
  await svc.close()
  await new Promise((r) => host.close(r))
})
ids.run()
