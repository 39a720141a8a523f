import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createService } from '../../../adapters/http/create-service.js'
import { solidPng, tempDir } from '../../helpers/media.js'
import { objectReader, startS3 } from '../../helpers/s3.js'
import { testService, titleEdit } from '../../helpers/service.js'

// Serve transfers (`POST /serve/{v1,stage}/assets`, Shotstack's `Transfer`): a render's file or any URL copied to
// the user's S3 bucket (s3rver, read back with the real AWS SDK) and to this service's hosting, each destination
// an asset whose status and error say how its copy went. The service's base URL (reelforge.test) resolves
// nowhere: its own files must be read from storage, not fetched.

const BUCKET = 'user-bucket'
const s3 = await startS3({ buckets: [BUCKET] })
const endpoint = s3.config.endpoint!
const read = objectReader(s3.config)
const objectBytes = (key: string) => read(BUCKET, key)

const svc = await testService({ start: true, config: { shotstack: true } })
await svc.call('PUT', '/v1/integrations/s3', { body: { access_key_id: 'S3RVER', secret_access_key: 'S3RVER', region: 'us-east-1', endpoint } })
// A sandbox key of the same account: the stage environment with the account's integration.
const stageKey = (await svc.keys.create({ sandbox: true, accountId: svc.liveAccount })).key
const live = { 'x-api-key': svc.live }
const stage = { 'x-api-key': stageKey }
const call = async (method: string, path: string, headers: Record<string, string>, body?: unknown) => {
  const init = body === undefined ? {} : { body: JSON.stringify(body), headers: { ...headers, 'content-type': 'application/json' } }
  const res = await svc.app.request(path, { method, headers, ...init })
  return { status: res.status, body: res.status === 204 ? null : ((await res.json()) as any) }
}
const hosted = async (url: string) => Buffer.from(await (await svc.app.request(new URL(url).pathname)).arrayBuffer())
const s3To = (options: object = {}) => ({ provider: 's3', options: { bucket: BUCKET, region: 'us-east-1', ...options } })
const uuid = () => crypto.randomUUID()

const done = await svc.waitFor((await svc.call('POST', '/v1/render', { body: titleEdit() })).body.jobId, ['COMPLETE', 'FAILED'])
assert.is(done.status, 'COMPLETE')
const rendered = await hosted(done.url)

const png = readFileSync(await solidPng(join(tempDir(), 'red.png'), 16, 16, '#ff0000'))
const host = createServer((req, res) => (req.url === '/pic' ? res.writeHead(200).end(png) : res.writeHead(404).end()))
await new Promise<void>((r) => host.listen(0, '127.0.0.1', r))
const hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}`

/** The transfer's assets once none is still importing, polled as a client would. */
async function settled(env: 'v1' | 'stage', id: string) {
  for (const until = Date.now() + 30_000; ; await new Promise((r) => setTimeout(r, 50))) {
    const r = await call('GET', `/serve/${env}/assets/render/${id}`, env === 'v1' ? live : stage)
    assert.is(r.status, 200, JSON.stringify(r.body))
    const assets = r.body.data.map((a: any) => a.attributes)
    if (!assets.some((a: any) => a.status === 'importing')) return assets
    if (Date.now() > until) throw new Error(`transfer ${id} still importing`)
  }
}

const copies = suite('POST /serve/{v1,stage}/assets')
copies("a render's file to S3 on v1 and stage: TransferResponse at once, the object equal to the render's bytes", async () => {
  for (const [env, key] of [
    ['v1', live],
    ['stage', stage],
  ] as const) {
    const id = uuid()
    const r = await call('POST', `/serve/${env}/assets`, key, { url: done.url, id, destinations: [s3To({ prefix: `moved/${env}` })] })
    assert.is(r.status, 200, JSON.stringify(r.body))
    assert.equal(Object.keys(r.body.data.attributes).sort(), ['created', 'id', 'owner', 'status'])
    assert.equal([r.body.data.type, r.body.data.attributes.id, r.body.data.attributes.status], ['asset', id, 'queued'])
    const [asset] = await settled(env, id)
    assert.equal([asset.status, asset.renderId, asset.provider, asset.providerId], ['ready', id, 's3', `moved/${env}/${id}.mp4`])
    assert.is(asset.url, `${endpoint}/${BUCKET}/moved/${env}/${id}.mp4`)
    assert.ok((await objectBytes(`moved/${env}/${id}.mp4`)).equals(rendered), `${env}: the object is the render's file`)
    // The first asset takes the transfer's id, so Shotstack's Get Asset reads its status directly.
    const got = await call('GET', `/serve/${env}/assets/${id}`, key)
    assert.equal([got.status, got.body.data.attributes.status, got.body.data.attributes.id], [200, 'ready', id])
  }
})
copies('any URL to S3 (named by options.filename) and to this service’s hosting; deleting the hosted copy removes its file', async () => {
  const id = uuid()
  const r = await call('POST', '/serve/v1/assets', live, { url: `${hostUrl}/pic`, id, destinations: [s3To({ filename: 'logo' }), { provider: 'shotstack' }] })
  assert.is(r.body.data.attributes.status, 'queued')
  const [inBucket, ours] = await settled('v1', id)
  assert.equal([inBucket.status, inBucket.filename], ['ready', 'logo.png'], 'the extension is what the bytes are')
  assert.ok((await objectBytes('logo.png')).equals(png))
  assert.equal([ours.status, ours.provider, ours.providerId], ['ready', 'shotstack', ours.id])
  assert.match(ours.url, /^http:\/\/reelforge\.test\/v1\/files\//)
  assert.ok((await hosted(ours.url)).equals(png), 'hosted copy equals the source')
  assert.is((await call('DELETE', `/serve/v1/assets/${ours.id}`, live)).status, 204)
  assert.is((await call('GET', `/serve/v1/assets/${ours.id}`, live)).body.data.attributes.status, 'deleted')
  assert.is((await svc.app.request(new URL(ours.url).pathname)).status, 404, 'the hosted file is gone')
})
copies('destinations reelforge cannot reach fail on their own asset, with why; never a 500', async () => {
  const id = uuid()
  const r = await call('POST', '/serve/v1/assets', live, {
    url: done.url,
    id,
    destinations: [{ provider: 'mux', options: { playbackPolicy: ['public'] } }, s3To({ bucket: 'no-such-bucket' }), s3To()],
  })
  assert.equal([r.status, r.body.data.attributes.status], [200, 'queued'])
  const [mux, missing, ok] = await settled('v1', id)
  assert.equal([mux.status, mux.error], ['failed', 'reelforge cannot send to "mux"'])
  assert.is(missing.status, 'failed')
  assert.match(missing.error, /^s3:\/\/no-such-bucket\/.*NoSuchBucket \(HTTP 404\)/)
  assert.is(ok.status, 'ready', 'the others still copy')
  assert.not.ok('url' in mux || 'url' in missing)

  const none = await call('POST', '/serve/v1/assets', live, { url: done.url, id: uuid(), destinations: [{ provider: 'vimeo' }] })
  assert.equal([none.status, none.body.data.attributes.status], [200, 'failed'], 'nothing can be sent: failed at once')
  const gone = await call('POST', '/serve/v1/assets', live, { url: `${hostUrl}/missing`, id, destinations: [s3To()] })
  assert.is(gone.status, 200)
  const latest = (await settled('v1', id)).at(-1)
  assert.equal([latest.status, latest.id === id], ['failed', false], 'a reused id: the new asset gets its own id')
  assert.match(latest.error, /404/)
})
copies.run()

const refusals = suite('refused transfers (400 in the Serve envelope, nothing recorded)')
const count = async () => (await svc.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM transfer_assets'))!.n
function refused(r: { status: number; body: any }, words: RegExp) {
  assert.is(r.status, 400, JSON.stringify(r.body))
  assert.equal([r.body.success, r.body.message], [false, 'Bad Request'])
  assert.match(r.body.response, words)
}
refusals('missing fields, a private or file URL, a missing own file, an s3 destination without credentials', async () => {
  const before = await count()
  const r = await call('POST', '/serve/v1/assets', live, {})
  for (const field of ['url', 'id', 'destinations']) assert.match(r.body.response, new RegExp(`(: |; )${field}: is required`), field)
  refused(r, /url: /)
  refused(await call('POST', '/serve/v1/assets', live, { url: done.url, id: 'x', destinations: [] }), /destinations: must name at least one/)
  for (const url of ['http://10.0.0.1/a.mp4', 'http://169.254.169.254/latest/meta-data'])
    refused(await call('POST', '/serve/v1/assets', live, { url, id: 'x', destinations: [s3To()] }), /^url: .*(private|metadata|not allowed)/)
  refused(await call('POST', '/serve/v1/assets', live, { url: 'file:///etc/passwd', id: 'x', destinations: [s3To()] }), /url: must be an http\(s\) URL/)
  const deleted = done.url.replace(/\/[^/]+$/, '/nothing.mp4')
  refused(await call('POST', '/serve/v1/assets', live, { url: deleted, id: 'x', destinations: [s3To()] }), /url: no file at this URL/)
  refused(
    await call('POST', '/serve/v1/assets', live, { url: done.url, id: 'x', destinations: [s3To({ acl: 'everyone' })] }),
    /destinations\[0\]\.options\.acl/,
  )
  const other = await svc.keys.create()
  refused(
    await call('POST', '/serve/v1/assets', { 'x-api-key': other.key }, { url: done.url, id: 'x', destinations: [s3To()] }),
    /destinations\[0\]: an s3 destination needs the account's S3 credentials/,
  )
  assert.is(await count(), before)
})
refusals("another account, or the account's sandbox key on a live transfer, does not see its assets", async () => {
  const id = uuid()
  await call('POST', '/serve/v1/assets', live, { url: done.url, id, destinations: [{ provider: 'shotstack' }] })
  await settled('v1', id)
  const other = { 'x-api-key': (await svc.keys.create()).key }
  assert.is((await call('GET', `/serve/v1/assets/${id}`, other)).status, 404)
  assert.is((await call('GET', `/serve/v1/assets/render/${id}`, other)).status, 404)
  assert.is((await call('GET', `/serve/stage/assets/${id}`, stage)).status, 404)
  assert.is((await call('DELETE', `/serve/v1/assets/${id}`, other)).status, 404)
  assert.is((await call('GET', `/serve/v1/assets/${id}`, live)).body.data.attributes.status, 'ready')
})
refusals.run()

const restart = suite('a restart')
restart('resumes the copies a stopped process had not made', async () => {
  const first = await testService({ config: { shotstack: true } }) // not started: nothing copies
  await first.call('PUT', '/v1/integrations/s3', { body: { access_key_id: 'S3RVER', secret_access_key: 'S3RVER', region: 'us-east-1', endpoint } })
  const id = uuid()
  const headers = { 'x-api-key': first.live, 'content-type': 'application/json' }
  const body = JSON.stringify({ url: `${hostUrl}/pic`, id, destinations: [s3To({ prefix: 'resumed' })] })
  assert.is((await first.app.request('/serve/v1/assets', { method: 'POST', headers, body })).status, 200)
  await first.close()
  const again = await createService(first.config)
  await again.start()
  try {
    for (let status = 'importing', i = 0; status === 'importing'; i++, await new Promise((r) => setTimeout(r, 50))) {
      if (i > 600) throw new Error('never resumed')
      status = ((await (await again.app.request(`/serve/v1/assets/${id}`, { headers })).json()) as any).data.attributes.status
      assert.ok(status === 'importing' || status === 'ready', status)
    }
    assert.ok((await objectBytes(`resumed/${id}.png`)).equals(png))
  } finally {
    await again.close()
  }
})
restart.after(async () => {
  await svc.close()
  await s3.close()
  await new Promise((r) => host.close(r))
})
restart.run()
