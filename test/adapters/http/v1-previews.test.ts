import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { tempDir } from '../../helpers/media.js'
import { pixelDiff, pngPixels, previewFixture } from '../../helpers/preview.js'
import { testService, titleEdit, type TestService } from '../../helpers/service.js'

// Preview sessions over /v1, as an editor uses them: open one on an edit, scrub its frames, change the edit,
// close it. Every frame must be the one `POST /v1/render/frame` draws for the same edit and time.

const dir = tempDir('reelforge-previews-')
const fixture = await previewFixture(dir)
const files = { allow: [dir] }

/** A PNG answer's pixels (and its status and headers). */
async function png(svc: TestService, method: 'GET' | 'POST', path: string, body?: object, key = svc.live) {
  const headers: Record<string, string> = { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) }
  const res = await svc.app.request(path, { method, headers, body: body ? JSON.stringify(body) : undefined })
  const bytes = new Uint8Array(await res.arrayBuffer())
  if (res.status !== 200) return { status: res.status, headers: res.headers, error: JSON.parse(new TextDecoder().decode(bytes)) }
  assert.is(res.headers.get('content-type'), 'image/png')
  return { status: 200, headers: res.headers, pixels: await pngPixels(bytes, dir) }
}
/** What `POST /v1/render/frame` draws. */
const rendered = async (svc: TestService, edit: object, time: number) => (await png(svc, 'POST', '/v1/render/frame', { ...edit, time })).pixels!

const test = suite('/v1/previews')

test('frames in scrubbing order are POST /v1/render/frame’s, pixel for pixel (GET ?t= and POST {time})', async () => {
  const svc = await testService({ config: { files } })
  try {
    const created = await svc.call('POST', '/v1/previews', { body: fixture.edit() })
    assert.is(created.status, 201, JSON.stringify(created.body))
    const { id, ...info } = created.body
    assert.equal(info, { revision: 1, duration: 6, fps: 25, frames: 150, width: 320, height: 180, warnings: [], reused: 0, prepared: 4, idle_timeout: 60 })
    assert.equal((await svc.call('GET', `/v1/previews/${id}`)).body, created.body)
    // Steps a frame at a time, back, a jump into the fade, the wipe, the end and past it (the last frame).
    for (const t of [0.04, 0.08, 1.2, 0.6, 3.2, 3.28, 5.5, 2.96, 9]) {
      const frame = t === 3.28 ? await png(svc, 'POST', `/v1/previews/${id}/frame`, { time: t }) : await png(svc, 'GET', `/v1/previews/${id}/frame?t=${t}`)
      assert.is(frame.status, 200, JSON.stringify(frame.error))
      assert.is(frame.headers.get('x-preview-revision'), '1')
      const { max } = pixelDiff(frame.pixels!, await rendered(svc, fixture.edit(), t))
      assert.is(max, 0, `t ${t}: up to ${max} levels apart`)
    }
  } finally {
    await svc.close()
  }
})

test('PUT a changed title: one clip prepared again, only the title’s pixels change; a refused edit changes nothing', async () => {
  const svc = await testService({ config: { files } })
  try {
    const { id } = (await svc.call('POST', '/v1/previews', { body: fixture.edit('Hello') })).body
    const before = (await png(svc, 'GET', `/v1/previews/${id}/frame?t=2`)).pixels!
    const put = await svc.call('PUT', `/v1/previews/${id}`, { body: fixture.edit('World') })
    assert.is(put.status, 200, JSON.stringify(put.body))
    assert.equal([put.body.revision, put.body.reused, put.body.prepared], [2, 3, 1])
    const after = await png(svc, 'GET', `/v1/previews/${id}/frame?t=2`)
    assert.is(after.headers.get('x-preview-revision'), '2')
    assert.is(pixelDiff(after.pixels!, await rendered(svc, fixture.edit('World'), 2)).max, 0, 'the new edit’s frame')
    const { box } = pixelDiff(after.pixels!, before)
    assert.ok(box && box.y1 < 60, `only the title (at the top) changed: ${JSON.stringify(box)}`)
    // A bad edit is refused with its path, and the session keeps the edit it had.
    const bad = await svc.call('PUT', `/v1/previews/${id}`, { body: { ...fixture.edit('Again'), output: { ...fixture.edit().output, fps: 7 } } })
    assert.is(bad.status, 400)
    assert.match(JSON.stringify(bad.body), /output\.fps/)
    assert.is((await svc.call('GET', `/v1/previews/${id}`)).body.revision, 2)
    assert.is(pixelDiff((await png(svc, 'GET', `/v1/previews/${id}/frame?t=2`)).pixels!, after.pixels!).max, 0)
  } finally {
    await svc.close()
  }
})

test('bad input is a 400 naming the field; another account’s session answers 404 on every route; DELETE ends it', async () => {
  const svc = await testService({ config: { files } })
  try {
    const invalid = await svc.call('POST', '/v1/previews', { body: { timeline: { tracks: [] }, output: { format: 'mp4', resolution: 'sd' } } })
    assert.is(invalid.status, 400)
    assert.match(JSON.stringify(invalid.body.error.issues), /timeline\.tracks/)
    const { id } = (await svc.call('POST', '/v1/previews', { body: titleEdit(2) })).body
    for (const t of ['-1', 'soon', '']) {
      const r = await png(svc, 'GET', `/v1/previews/${id}/frame?t=${t}`)
      assert.equal([r.status, r.error.error.issues[0].path], [400, 't'], `t=${t}`)
    }
    const noTime = await svc.call('POST', `/v1/previews/${id}/frame`, { body: {} })
    assert.equal([noTime.status, noTime.body.error.issues[0].path], [400, 'time'])
    // A source that cannot be read names its field in `issues` too, as validation does: an editor marks that field.
    const gone = { timeline: { tracks: [{ clips: [{ asset: { type: 'image', src: `${dir}/gone.png` }, start: 0, length: 1 }] }] }, time: 0.5 }
    const missing = await svc.call('POST', '/v1/render/frame', { body: gone })
    assert.is(missing.body.error.code, 'E_ASSET_UNREADABLE', JSON.stringify(missing.body))
    assert.equal(
      missing.body.error.issues.map((i: { path: string }) => i.path),
      ['timeline.tracks[0].clips[0].asset.src'],
    )
    assert.ok(!missing.body.error.issues[0].message.startsWith('timeline.'), 'the message without its path')
    // svc.sandbox is a key of another account.
    for (const [method, path, body] of [
      ['GET', `/v1/previews/${id}`],
      ['GET', `/v1/previews/${id}/frame?t=1`],
      ['POST', `/v1/previews/${id}/frame`, { time: 1 }],
      ['PUT', `/v1/previews/${id}`, titleEdit(2)],
      ['DELETE', `/v1/previews/${id}`],
    ] as const) {
      const r = await svc.call(method, path, { key: svc.sandbox, body })
      assert.equal([r.status, r.body.error.code], [404, 'E_NOT_FOUND'], `${method} ${path}`)
    }
    assert.is((await svc.call('DELETE', `/v1/previews/${id}`)).status, 200)
    assert.is((await svc.call('GET', `/v1/previews/${id}`)).status, 404)
  } finally {
    await svc.close()
  }
})

test('bounded per key and per server (429 with Retry-After), and frames count against the frame preview rate limit', async () => {
  const svc = await testService({ config: { limits: { previewsPerKey: 1, previews: 2 } as never, rateLimits: { 'frame-preview': 4 } } })
  try {
    const first = await svc.call('POST', '/v1/previews', { body: titleEdit(2) })
    assert.is(first.status, 201)
    const again = await svc.call('POST', '/v1/previews', { body: titleEdit(2) })
    assert.is(again.status, 429)
    assert.match(again.body.error.message, /limits\.previewsPerKey/)
    const wait = Number(again.headers.get('retry-after'))
    assert.ok(wait >= 1 && wait <= 60, `Retry-After ${wait}`)
    assert.is((await svc.call('POST', '/v1/previews', { key: svc.sandbox, body: titleEdit(2) })).status, 201, 'another key has its own')
    const third = await svc.keys.create()
    const full = await svc.call('POST', '/v1/previews', { key: third.key, body: titleEdit(2) })
    assert.is(full.status, 429)
    assert.match(full.body.error.message, /limits\.previews\b/)
    // Opening took one of the live key's 4 a minute (refusals for a full key or server take none); three frames reach it.
    for (let i = 0; i < 3; i++) assert.is((await png(svc, 'GET', `/v1/previews/${first.body.id}/frame?t=${i / 10}`)).status, 200)
    const limited = await png(svc, 'GET', `/v1/previews/${first.body.id}/frame?t=1`)
    assert.is(limited.status, 429)
    assert.ok(Number(limited.headers.get('retry-after')) > 0)
    // Opening counts against the rate limit too; deleting a session frees its place on the server.
    assert.is((await svc.call('DELETE', `/v1/previews/${first.body.id}`)).status, 200)
    const rate = await svc.call('POST', '/v1/previews', { body: titleEdit(2) })
    assert.equal([rate.status, rate.body.error.code], [429, 'E_RATE_LIMITED'])
    assert.match(rate.body.error.message, /frame previews/)
    assert.is((await svc.call('POST', '/v1/previews', { key: third.key, body: titleEdit(2) })).status, 201)
  } finally {
    await svc.close()
  }
})

test.run()
