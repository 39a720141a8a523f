import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { DEFAULT_LIMITS, dbPath } from '../../../service/config.js'
import { titleEdit, testService } from '../../helpers/service.js'

// ── Authentication ──────────────────────────────────────────────────────────────────────────
const auth = suite('authentication')
const svc = await testService()
auth('no key, a wrong key and x-api-key alone are 401 with the one error shape', async () => {
  for (const opts of [{ key: null }, { key: 'rf_live_nope' }, { key: null, headers: { 'x-api-key': svc.live } }]) {
    const r = await svc.call('GET', '/v1/render/00000000-0000-4000-8000-000000000000', opts)
    assert.is(r.status, 401)
    assert.is(r.body.error.code, 'E_UNAUTHORIZED')
    assert.type(r.body.error.message, 'string')
  }
  const hinted = await svc.call('GET', '/v1/render/x', { key: null, headers: { 'x-api-key': svc.live } })
  assert.match(hinted.body.error.message, /x-api-key header is not accepted/)
})
auth('a revoked key stops working', async () => {
  const { key, record } = await svc.keys.create({ sandbox: true })
  assert.is((await svc.call('POST', '/v1/render', { key, body: titleEdit() })).status, 201)
  await svc.keys.revoke(record.keyId)
  assert.is((await svc.call('POST', '/v1/render', { key, body: titleEdit() })).status, 401)
})
auth('keys are stored hashed: the database never holds a clear key', async () => {
  // Every column of every key row, read back from the store (either engine).
  const rows = JSON.stringify(await svc.db.all('SELECT * FROM api_keys'))
  assert.ok(rows.includes(svc.live.slice(0, 12)), 'the prefix is kept (shown in key lists)')
  assert.not.ok(rows.includes(svc.live), 'live key in clear')
  assert.not.ok(rows.includes(svc.sandbox.slice(8)), 'sandbox key in clear')
  if (svc.db.dialect === 'sqlite') {
    // And nowhere in the file itself.
    await svc.db.get('PRAGMA wal_checkpoint(TRUNCATE)')
    const bytes = readFileSync(dbPath(svc.config)).toString('latin1')
    assert.not.ok(bytes.includes(svc.live), 'live key in clear in the file')
    assert.not.ok(bytes.includes(svc.sandbox.slice(8)), 'sandbox key in clear in the file')
  }
})
auth.run()

// ── Submitting ──────────────────────────────────────────────────────────────────────────────
const submit = suite('POST /v1/render')
const count = async () => (await svc.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM jobs'))!.n
submit('a valid edit → 201 {jobId, status: QUEUED}, persisted before the answer', async () => {
  const before = await count()
  const r = await svc.call('POST', '/v1/render', { body: titleEdit() })
  assert.is(r.status, 201)
  assert.match(r.body.jobId, /^[0-9a-f-]{36}$/)
  assert.is(r.body.status, 'QUEUED')
  assert.is(await count(), before + 1)
  const status = await svc.call('GET', `/v1/render/${r.body.jobId}`)
  assert.is(status.status, 200)
  assert.is(status.body.status, 'QUEUED')
  for (const field of ['id', 'status', 'stage', 'progress', 'url', 'poster', 'thumbnail', 'duration', 'credits_used', 'error', 'created_at', 'updated_at'])
    assert.ok(field in status.body, field)
})
submit('the job a submission answers with is the row the store holds (the schema defaults spelled out in code)', async () => {
  const account = (await svc.keys.verify(svc.live))!.accountId
  const made = await svc.jobs.create({ accountId: account, keyId: 'k1', kind: 'render', request: titleEdit(), sandbox: false })
  assert.equal(await svc.jobs.get(made.id), made)
  const other = await svc.jobs.create({
    accountId: account,
    keyId: 'k1',
    kind: 'render',
    request: titleEdit(),
    callback: 'https://example.com/cb',
    sandbox: true,
  })
  assert.equal(await svc.jobs.get(other.id), other)
})
submit('an invalid edit → 400 listing every issue with its path; nothing stored', async () => {
  const before = await count()
  const bad = titleEdit() as any
  bad.timeline.tracks[0].clips[0].start = 'soon'
  bad.output.fps = 7
  const r = await svc.call('POST', '/v1/render', { body: bad })
  assert.is(r.status, 400)
  assert.is(r.body.error.code, 'E_TIMELINE_INVALID')
  const paths = r.body.error.issues.map((i: { path: string }) => i.path)
  assert.ok(paths.includes('timeline.tracks[0].clips[0].start') && paths.includes('output.fps'), JSON.stringify(r.body.error.issues))
  assert.is(await count(), before)
})
submit('malformed JSON 400, wrong content type 415, oversized body 413', async () => {
  const malformed = await svc.call('POST', '/v1/render', { raw: '{"timeline": ', headers: { 'content-type': 'application/json' } })
  assert.is(malformed.status, 400)
  assert.is(malformed.body.error.code, 'E_BAD_REQUEST')
  assert.match(malformed.body.error.message, /malformed JSON/)
  const text = await svc.call('POST', '/v1/render', { raw: 'hi', headers: { 'content-type': 'text/plain' } })
  assert.is(text.status, 415)
  const huge = await svc.call('POST', '/v1/render', { body: { ...titleEdit(), padding: 'x'.repeat(6 * 1024 * 1024) } })
  assert.is(huge.status, 413)
  assert.is(huge.body.error.code, 'E_PAYLOAD_TOO_LARGE')
})
submit('input bounds → 400 E_INPUT_LIMIT naming the field and the limit (tracks, clips, per track, text, markup, merge)', async () => {
  const small = await testService({
    config: {
      limits: { ...DEFAULT_LIMITS, tracks: 2, clips: 3, clipsPerTrack: 2, markupChars: 1000, textChars: 50, mergeFields: 2, mergedChars: 5000 },
    },
  })
  const title = (text = 'x', start = 0) => ({ asset: { type: 'title', text }, start, length: 1 })
  const withClips = (...tracks: object[][]) => ({ ...titleEdit(), timeline: { tracks: tracks.map((clips) => ({ clips })) } })
  const merged = (merge: object[], text = '{{ A }}') => ({ ...withClips([title(text)]), merge })
  const cases: [object, RegExp][] = [
    [withClips([title()], [title()], [title()]), /^timeline\.tracks: 3 tracks exceed the limit of 2$/],
    [withClips([title(), title('x', 1)], [title(), title('x', 1)]), /^timeline\.tracks: 4 clips exceed the limit of 3$/],
    [withClips([title(), title('x', 1), title('x', 2)]), /^timeline\.tracks\[0\]\.clips: 3 clips exceed the limit of 2 per track$/],
    [withClips([title('y'.repeat(51))]), /^timeline\.tracks\[0\]\.clips\[0\]\.asset\.text: 51 characters of text exceed the limit of 50$/],
    [
      withClips([{ asset: { type: 'html', html: `<p>${'x'.repeat(40)}</p>`, css: 'p{}'.repeat(330) }, start: 0, length: 1 }]),
      /^timeline\.tracks\[0\]\.clips\[0\]\.asset\.html: 1037 characters of markup exceed the limit of 1000$/,
    ],
    [
      withClips([{ asset: { type: 'html', html: `<p>${'x'.repeat(60)}</p>` }, start: 0, length: 1 }]),
      /asset\.html: 60 characters of text exceed the limit of 50$/,
    ],
    [merged(['A', 'B', 'C'].map((find) => ({ find, replace: 'v' }))), /^merge: 3 merge fields exceed the limit of 2$/],
    [
      merged([{ find: 'A', replace: 'v'.repeat(2000) }], '{{ A }}{{A}}{{ A }}'),
      /^merge: the edit would be \d+ characters once its merge fields are filled in, more than the limit of 5000$/,
    ],
  ]
  for (const [edit, pattern] of cases) {
    const r = await small.call('POST', '/v1/render', { body: edit })
    assert.is(r.status, 400, JSON.stringify(r.body))
    assert.is(r.body.error.code, 'E_INPUT_LIMIT')
    assert.match(r.body.error.message, pattern)
    assert.is(r.body.error.issues[0].path, r.body.error.message.split(':')[0], 'the issue names the field')
  }
  assert.is((await small.call('POST', '/v1/render', { body: withClips([title('y'.repeat(50))]) })).status, 201, 'at the limit is fine')
  await small.close()
})
submit('cost limits → 422 naming the limit (duration per key kind, output size)', async () => {
  const small = await testService({ config: { limits: { ...DEFAULT_LIMITS, durationSandbox: 10, durationLive: 20, pixels: 1920 * 1080 } } })
  const cases: [object, string | undefined, RegExp][] = [
    [titleEdit(15), small.sandbox, /limit for sandbox keys is 10 s/],
    [titleEdit(25), undefined, /limit for live keys is 20 s/],
    [titleEdit(1, { size: undefined, resolution: '4k' }), undefined, /3840x2160 output exceeds/],
  ]
  for (const [edit, key, pattern] of cases) {
    const r = await small.call('POST', '/v1/render', { body: edit, key: key ?? small.live })
    assert.is(r.status, 422, JSON.stringify(r.body))
    assert.is(r.body.error.code, 'E_LIMIT_EXCEEDED')
    assert.match(r.body.error.message, pattern)
  }
  assert.is((await small.call('POST', '/v1/render', { body: titleEdit(15) })).status, 201, 'live keys have the longer limit')
  // The field blamed is the one that carries the clip past the limit: a start past it, else the length.
  const late = titleEdit(1)
  late.timeline.tracks[0]!.clips[0]!.start = 12
  const at = async (edit: object) => (await small.call('POST', '/v1/render', { body: edit, key: small.sandbox })).body.error.issues[0].path
  assert.is(await at(late), 'timeline.tracks[0].clips[0].start')
  assert.is(await at(titleEdit(15)), 'timeline.tracks[0].clips[0].length')
  await small.close()
})
submit("Shotstack's own paths are aliases", async () => {
  for (const prefix of ['/edit/v1', '/edit/stage', '/stage']) {
    const r = await svc.call('POST', `${prefix}/render`, { body: titleEdit() })
    assert.is(r.status, 201, prefix)
    assert.is((await svc.call('GET', `${prefix}/render/${r.body.jobId}`)).body.id, r.body.jobId)
  }
})
submit("without --shotstack none of Shotstack's own surface answers, and the aliases take Bearer only", async () => {
  for (const path of ['/edit/v1/templates', '/edit/v1/probe/x', '/serve/v1/assets/x', '/ingest/v1/sources']) {
    const r = await svc.call('GET', path, { key: null, headers: { 'x-api-key': svc.live } })
    assert.equal([r.status, r.body.error?.code], [404, 'E_NOT_FOUND'], path)
  }
  const before = await count()
  const r = await svc.call('POST', '/edit/v1/render', { key: null, headers: { 'x-api-key': svc.live }, body: titleEdit() })
  assert.equal([r.status, r.body.error?.code], [401, 'E_UNAUTHORIZED'])
  assert.is(await count(), before, 'nothing queued')
})
submit.run()

// ── Reading and isolation ───────────────────────────────────────────────────────────────────
const read = suite('GET /v1/render/{id}')
read("another account's job is a 404, exactly like a missing one", async () => {
  const mine = await svc.call('POST', '/v1/render', { body: titleEdit() })
  const theirs = await svc.call('GET', `/v1/render/${mine.body.jobId}`, { key: svc.sandbox })
  const missing = await svc.call('GET', '/v1/render/00000000-0000-4000-8000-000000000000', { key: svc.sandbox })
  assert.is(theirs.status, 404)
  assert.equal(theirs.body.error.code, missing.body.error.code)
  assert.is((await svc.call('GET', '/v1/render/not-a-uuid')).status, 404)
})
read('unknown routes are a JSON 404; the OpenAPI document covers every route', async () => {
  const r = await svc.call('GET', '/v1/nothing-here')
  assert.is(r.status, 404)
  assert.is(r.body.error.code, 'E_NOT_FOUND')
  const doc = (await svc.call('GET', '/v1/openapi.json', { key: null })).body
  assert.is(doc.openapi, '3.1.0')
  for (const [path, method] of [
    ['/v1/render', 'post'],
    ['/v1/render/{id}', 'get'],
    ['/v1/render/{id}', 'delete'],
    ['/v1/stitch', 'post'],
    ['/v1/files/{job}/{name}', 'get'],
  ] as const) {
    assert.ok(doc.paths[path]?.[method], `${method} ${path}`)
  }
  const render = doc.paths['/v1/render'].post
  const component = (s: { $ref: string }) => doc.components.schemas[s.$ref.replace('#/components/schemas/', '')]
  assert.ok(component(render.requestBody.content['application/json'].schema).properties.timeline, 'edit schema')
  assert.ok(component(render.responses['400'].content['application/json'].schema).properties.error, 'error body schema')
  assert.ok(doc.components.schemas.Asset.oneOf.length >= 16, 'every asset type')
})
read.run()

// ── Processing ──────────────────────────────────────────────────────────────────────────────
const run = suite('render jobs')
const worker = await testService({ start: true })
run('QUEUED → PROCESSING (stages) → COMPLETE, with a downloadable file that supports ranges', async () => {
  const { body } = await worker.call('POST', '/v1/render', { body: titleEdit(2, { poster: { capture: 1 } }) })
  const seen = new Set<string>()
  let done: any
  for (const until = Date.now() + 60_000; Date.now() < until; ) {
    const s = (await worker.call('GET', `/v1/render/${body.jobId}`)).body
    seen.add(s.stage ? `${s.status}:${s.stage}` : s.status)
    if (s.status === 'COMPLETE' || s.status === 'FAILED') {
      done = s
      break
    }
    await new Promise((r) => setTimeout(r, 10))
  }
  assert.is(done.status, 'COMPLETE', done.error)
  assert.ok(
    [...seen].some((s) => s.startsWith('PROCESSING:')),
    [...seen].join(' '),
  )
  assert.is(done.duration, 2)
  assert.match(done.url, new RegExp(`^http://reelforge\\.test/v1/files/${body.jobId}/`))
  const path = new URL(done.url).pathname
  const file = await worker.app.request(path)
  assert.is(file.status, 200)
  assert.is(file.headers.get('content-type'), 'video/mp4')
  assert.is(file.headers.get('accept-ranges'), 'bytes')
  const size = Number(file.headers.get('content-length'))
  const bytes = Buffer.from(await file.arrayBuffer())
  assert.is(bytes.length, size)
  assert.ok(bytes.includes('ftyp'), 'an mp4')
  const part = await worker.app.request(path, { headers: { range: 'bytes=10-19' } })
  assert.is(part.status, 206)
  assert.is(part.headers.get('content-range'), `bytes 10-19/${size}`)
  assert.equal(Buffer.from(await part.arrayBuffer()), bytes.subarray(10, 20))
  assert.is((await worker.app.request(path, { headers: { range: `bytes=${size + 5}-` } })).status, 416)
  assert.is((await worker.app.request(path, { method: 'HEAD' })).headers.get('content-length'), String(size))
  assert.is((await worker.app.request(new URL(done.poster).pathname)).headers.get('content-type'), 'image/jpeg')
  assert.is((await worker.app.request('/v1/files/../etc/passwd')).status, 404)
})
run('an edit without `output` renders an hd mp4, as /v1 promises (docs/shotstack.md)', async () => {
  const { output: _o, ...noOutput } = titleEdit()
  const { body } = await worker.call('POST', '/v1/render', { body: noOutput })
  const done = await worker.waitFor(body.jobId, ['COMPLETE', 'FAILED'])
  assert.is(done.status, 'COMPLETE', done.error)
  assert.match(done.url, /\.mp4$/)
})
run("a failing render ends FAILED with the renderer's message naming the clip", async () => {
  const bad = titleEdit() as any
  bad.timeline.tracks.push({ clips: [{ asset: { type: 'image', src: '/v1/files/00000000-0000-4000-8000-000000000000/x.png' }, start: 0, length: 1 }] })
  const { body } = await worker.call('POST', '/v1/render', { body: bad })
  const done = await worker.waitFor(body.jobId, ['COMPLETE', 'FAILED'])
  assert.is(done.status, 'FAILED')
  assert.match(done.error, /timeline\.tracks\[1\]\.clips\[0\]\.asset\.src/)
})
run('DELETE cancels a running render (and a queued one) → FAILED "cancelled"', async () => {
  const { body } = await worker.call('POST', '/v1/render', { body: titleEdit(120, { size: { width: 640, height: 360 } }) })
  await worker.waitFor(body.jobId, ['PROCESSING'])
  const r = await worker.call('DELETE', `/v1/render/${body.jobId}`)
  assert.is(r.status, 200)
  assert.is(r.body.status, 'FAILED')
  assert.is(r.body.error, 'cancelled')
  // The worker stops promptly and nothing overwrites the cancellation.
  await new Promise((res) => setTimeout(res, 500))
  assert.is((await worker.call('GET', `/v1/render/${body.jobId}`)).body.error, 'cancelled')
  assert.is((await worker.call('DELETE', `/v1/render/${body.jobId}`)).status, 409)
  const queued = await svc.call('POST', '/v1/render', { body: titleEdit() }) // svc's queue is not running
  assert.is((await svc.call('DELETE', `/v1/render/${queued.body.jobId}`)).body.error, 'cancelled')
})
run('a sandbox key renders with a visible SANDBOX watermark; a live key without', async () => {
  const black = titleEdit(0.04, { format: 'png', size: { width: 320, height: 180 } }) as any
  black.timeline.tracks[0].clips[0].asset.text = ' '
  const bright = async (key: string) => {
    const { body } = await worker.call('POST', '/v1/render', { body: black, key })
    const done = await worker.waitFor(body.jobId, ['COMPLETE', 'FAILED'], key)
    assert.is(done.status, 'COMPLETE', done.error)
    const png = Buffer.from(await (await worker.app.request(new URL(done.url).pathname)).arrayBuffer())
    const { createCanvas, loadImage } = await import('@napi-rs/canvas')
    const img = await loadImage(png)
    const c = createCanvas(img.width, img.height)
    c.getContext('2d').drawImage(img, 0, 0)
    const d = c.getContext('2d').getImageData(0, 0, img.width, img.height).data
    let n = 0
    for (let i = 0; i < d.length; i += 4) if (d[i]! > 60) n++
    return n
  }
  assert.is(await bright(worker.live), 0)
  assert.ok((await bright(worker.sandbox)) > 200, 'watermark pixels')
})
run('the work directory is cleaned after each job', () => {
  const work = join(worker.config.dataDir, 'work')
  assert.equal(readdirSync(work).length, 0)
})
run.after(() => Promise.all([worker.close(), svc.close()]).then(() => undefined))
run.run()
