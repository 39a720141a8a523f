import { join } from 'node:path'
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3'
import { Redis } from 'ioredis'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createRenderer } from '../../../index.js'
import { filesDir, workDir } from '../../../service/config.js'
import { startBullWorker } from '../../../service/queue/bull-worker.js'
import { LocalStorage } from '../../../service/storage/storage.js'
import { redisDb } from '../../helpers/redis.js'
import { startS3 } from '../../helpers/s3.js'
import { LOOPBACK, titleEdit, testService, type TestService } from '../../helpers/service.js'

// `output.destinations` (Shotstack's field) and the account's S3 integration. reelforge keeps its own files in
// its local storage; the user's bucket is in s3rver, read back with the real AWS SDK.
const USER_BUCKET = 'user-bucket'
const s3 = await startS3({ buckets: [USER_BUCKET] })
const endpoint = s3.config.endpoint!
const GOOD = { access_key_id: 'S3RVER', secret_access_key: 'S3RVER', region: 'us-east-1', endpoint }
const SERVER_SECRET = 'server-secret-for-tests-0123456789abcdef'
const reader = new S3Client({
  region: 'us-east-1',
  endpoint,
  forcePathStyle: true,
  credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  requestChecksumCalculation: 'WHEN_REQUIRED',
  responseChecksumValidation: 'WHEN_REQUIRED',
})

const objectBytes = async (key: string) => {
  const r = await reader.send(new GetObjectCommand({ Bucket: USER_BUCKET, Key: key }))
  return { bytes: Buffer.from(await r.Body!.transformToByteArray()), type: r.ContentType }
}
const hostedBytes = async (svc: TestService, url: string) => {
  const res = await svc.app.request(new URL(url).pathname)
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) }
}
const s3Dest = (options: Record<string, unknown>) => ({ provider: 's3', options: { bucket: USER_BUCKET, region: 'us-east-1', ...options } })
const withDestinations = (destinations: unknown[], output: object = {}) => titleEdit(1, { ...output, destinations })

// ── The integration ─────────────────────────────────────────────────────────────────────────
const integ = suite('PUT/GET/DELETE /v1/integrations/s3')
integ('set, read back masked (encrypted at rest), refused to sandbox keys, removed', async () => {
  const svc = await testService({ config: { secretKey: SERVER_SECRET } })
  const secret = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'
  const bad = await svc.call('PUT', '/v1/integrations/s3', { body: { access_key_id: '', secret_access_key: secret, extra: 1 } })
  assert.is(bad.status, 400)
  const paths = bad.body.error.issues.map((i: { path: string }) => i.path)
  assert.ok(paths.includes('access_key_id') && paths.includes('extra'), JSON.stringify(paths))
  assert.is((await svc.call('GET', '/v1/integrations/s3')).status, 404)

  const put = await svc.call('PUT', '/v1/integrations/s3', { body: { access_key_id: 'AKIAEXAMPLE', secret_access_key: secret, region: 'eu-west-1' } })
  assert.is(put.status, 200)
  const got = await svc.call('GET', '/v1/integrations/s3')
  assert.is(got.status, 200)
  assert.equal(
    { ...got.body, updated_at: undefined },
    {
      provider: 's3',
      access_key_id: 'AKIAEXAMPLE',
      secret_access_key: '****EKEY',
      region: 'eu-west-1',
      endpoint: null,
      encrypted: true,
      updated_at: undefined,
    },
  )
  assert.not.ok(JSON.stringify(put.body).includes(secret) || JSON.stringify(got.body).includes(secret), 'secret never echoed')
  assert.not.ok(JSON.stringify(await svc.db.all('SELECT * FROM integrations')).includes(secret), 'secret encrypted in the database')

  // Sandbox keys may not change account settings; reading is per account (the sandbox key's has none).
  for (const method of ['PUT', 'DELETE']) {
    const r = await svc.call(method, '/v1/integrations/s3', { key: svc.sandbox, body: method === 'PUT' ? GOOD : undefined })
    assert.is(r.status, 403, method)
    assert.is(r.body.error.code, 'E_FORBIDDEN')
  }
  assert.is((await svc.call('GET', '/v1/integrations/s3', { key: svc.sandbox })).status, 404)
  assert.is((await svc.call('DELETE', '/v1/integrations/s3')).status, 200)
  assert.is((await svc.call('GET', '/v1/integrations/s3')).status, 404)
  assert.is((await svc.call('DELETE', '/v1/integrations/s3')).status, 404)
  await svc.close()
})
integ('without REELFORGE_SECRET_KEY the secret is stored as given, still never returned', async () => {
  const svc = await testService({ config: { secretKey: undefined } })
  const r = await svc.call('PUT', '/v1/integrations/s3', { body: { access_key_id: 'AKIA2', secret_access_key: 'short' } })
  assert.is(r.status, 200)
  assert.is(r.body.encrypted, false)
  assert.is(r.body.secret_access_key, '****')
  await svc.close()
})
integ.run()

// ── Submission ──────────────────────────────────────────────────────────────────────────────
const submit = suite('POST /v1/render with output.destinations')
submit('an s3 destination needs the integration and a bucket (400 naming the destination); others are accepted', async () => {
  const svc = await testService()
  const noCreds = await svc.call('POST', '/v1/render', { body: withDestinations([{ provider: 'shotstack' }, s3Dest({})]) })
  assert.is(noCreds.status, 400)
  assert.equal(
    noCreds.body.error.issues.map((i: { path: string }) => i.path),
    ['output.destinations[1]'],
  )
  assert.match(noCreds.body.error.message, /PUT \/v1\/integrations\/s3/)
  const dry = await svc.call('POST', '/v1/render/validate', { body: withDestinations([s3Dest({})]) })
  assert.is(dry.body.valid, false, 'validate refuses what submission would')

  assert.is((await svc.call('PUT', '/v1/integrations/s3', { body: GOOD })).status, 200)
  const noBucket = await svc.call('POST', '/v1/render', { body: withDestinations([{ provider: 's3', options: { region: 'us-east-1', acl: 'everyone' } }]) })
  assert.is(noBucket.status, 400)
  assert.equal(noBucket.body.error.issues.map((i: { path: string }) => i.path).sort(), [
    'output.destinations[0].options.acl',
    'output.destinations[0].options.bucket',
  ])

  // A Shotstack edit naming providers reelforge cannot send to is still accepted, with a warning.
  const mux = await svc.call('POST', '/v1/render', { body: withDestinations([{ provider: 'mux', options: { playbackPolicy: ['public'] } }, s3Dest({})]) })
  assert.is(mux.status, 201)
  assert.equal(
    mux.body.warnings.map((w: { path: string }) => w.path),
    ['output.destinations[0].provider'],
  )
  const status = await svc.call('GET', `/v1/render/${mux.body.jobId}`)
  assert.equal(status.body.destinations, [
    { provider: 'mux', status: 'pending' },
    { provider: 's3', status: 'pending' },
  ])
  const plain = await svc.call('GET', `/v1/render/${(await svc.call('POST', '/v1/render', { body: titleEdit() })).body.jobId}`)
  assert.not.ok('destinations' in plain.body, 'no destinations field without destinations')
  await svc.close()
})
submit.run()

// ── Copies ──────────────────────────────────────────────────────────────────────────────────
const copy = suite('copies to the user bucket')
const svc = await testService({ start: true, config: { secretKey: SERVER_SECRET } })
await svc.call('PUT', '/v1/integrations/s3', { body: GOOD })
const render = async (body: unknown) => {
  const r = await svc.call('POST', '/v1/render', { body })
  assert.is(r.status, 201, JSON.stringify(r.body))
  return svc.waitFor(r.body.jobId, ['COMPLETE', 'FAILED'])
}

copy('the mp4, poster and thumbnail land under prefix/filename, byte for byte; the status and webhook list the outcome', async () => {
  const done = await render({
    ...withDestinations([s3Dest({ prefix: '/customer-1/videos/', filename: 'my-video' })], {
      poster: { capture: 0.5 },
      thumbnail: { capture: 0.5, scale: 0.5 },
    }),
    callback: 'http://127.0.0.1:9/callback',
  })
  assert.is(done.status, 'COMPLETE')
  const base = `${endpoint}/${USER_BUCKET}/customer-1/videos/my-video`
  assert.equal(done.destinations, [{ provider: 's3', status: 'done', url: `${base}.mp4` }])
  for (const [hosted, key, type] of [
    [done.url, 'customer-1/videos/my-video.mp4', 'video/mp4'],
    [done.poster, 'customer-1/videos/my-video-poster.jpg', 'image/jpeg'],
    [done.thumbnail, 'customer-1/videos/my-video-thumb.jpg', 'image/jpeg'],
  ] as const) {
    const copied = await objectBytes(key)
    const own = await hostedBytes(svc, hosted)
    assert.is(own.status, 200, 'reelforge keeps its own copy by default')
    assert.ok(copied.bytes.length > 0 && copied.bytes.equals(own.bytes), `${key} equals the hosted file`)
    assert.is(copied.type, type)
  }
  // The render.complete callback carries the outcomes too.
  let payload: any
  for (let i = 0; i < 100 && !payload; i++) {
    const log = await svc.call('GET', '/v1/webhooks/deliveries?event=render.complete')
    payload = log.body.deliveries.find((d: any) => d.payload.data.id === done.id)?.payload
    if (!payload) await new Promise((r) => setTimeout(r, 50))
  }
  assert.equal(payload.data.destinations, done.destinations)
})

copy('a missing bucket fails that destination with S3 its error; the render completes and exclude does not remove its files', async () => {
  const done = await render(withDestinations([{ provider: 'shotstack', exclude: true }, s3Dest({}), s3Dest({ bucket: 'no-such-bucket' })]))
  assert.is(done.status, 'COMPLETE')
  assert.is(done.error, null)
  const [own, ok, missing] = done.destinations
  assert.equal(ok, { provider: 's3', status: 'done', url: `${endpoint}/${USER_BUCKET}/${done.id}.mp4` })
  assert.is(missing.status, 'failed')
  assert.match(missing.error, /^s3:\/\/no-such-bucket\/[0-9a-f-]{36}\.mp4: NoSuchBucket \(HTTP 404\)/)
  assert.is(own.status, 'failed')
  assert.match(own.error, /not excluded.*output\.destinations\[2\] failed/)
  assert.match(done.url, /^http:\/\/reelforge\.test\/v1\/files\//, 'still hosted')
  assert.is((await hostedBytes(svc, done.url)).status, 200)
})

copy('wrong credentials fail the destination with a clear error, not the render', async () => {
  const other = await testService({ start: true })
  await other.call('PUT', '/v1/integrations/s3', { body: { ...GOOD, access_key_id: 'NOT-A-KEY' } })
  const { body } = await other.call('POST', '/v1/render', { body: withDestinations([s3Dest({})]) })
  const done = await other.waitFor(body.jobId, ['COMPLETE', 'FAILED'])
  assert.is(done.status, 'COMPLETE')
  assert.is(done.destinations[0].status, 'failed')
  assert.match(done.destinations[0].error, /InvalidAccessKeyId \(HTTP 403\)/)
  await other.close()
})

copy('exclude: true moves the render: url is the copy, reelforge no longer serves the files', async () => {
  const done = await render(withDestinations([{ provider: 'shotstack', exclude: true }, s3Dest({ prefix: 'moved' })], { poster: { capture: 0 } }))
  assert.is(done.status, 'COMPLETE')
  assert.equal(done.destinations, [
    { provider: 'shotstack', status: 'done' },
    { provider: 's3', status: 'done', url: `${endpoint}/${USER_BUCKET}/moved/${done.id}.mp4` },
  ])
  assert.is(done.url, `${endpoint}/${USER_BUCKET}/moved/${done.id}.mp4`)
  assert.is(done.poster, `${endpoint}/${USER_BUCKET}/moved/${done.id}-poster.jpg`)
  assert.ok((await objectBytes(`moved/${done.id}.mp4`)).bytes.length > 0)
  for (const name of [`${done.id}.mp4`, `${done.id}-poster.jpg`])
    assert.is((await svc.app.request(`/v1/files/${done.id}/${name}`)).status, 404, `${name} removed from reelforge storage`)
})

copy('exclude with no other destination keeps the files (nothing else holds the render)', async () => {
  const done = await render(withDestinations([{ provider: 'shotstack', exclude: true }]))
  assert.is(done.status, 'COMPLETE')
  assert.equal(done.destinations, [
    { provider: 'shotstack', status: 'failed', error: "not excluded, the files stay in reelforge's storage: no other destination holds a copy" },
  ])
  assert.is((await hostedBytes(svc, done.url)).status, 200)
})

copy('an endpoint on a private address is refused unless the operator allows it', async () => {
  const guarded = await testService({ start: true, config: { network: { allow: [] } } })
  const put = await guarded.call('PUT', '/v1/integrations/s3', { body: GOOD })
  assert.is(put.status, 400)
  assert.equal(put.body.error.issues[0].path, 'endpoint')
  assert.match(put.body.error.issues[0].message, /loopback/)
  assert.is((await guarded.call('PUT', '/v1/integrations/s3', { body: { ...GOOD, endpoint: undefined } })).status, 200)
  const submitted = await guarded.call('POST', '/v1/render', { body: withDestinations([s3Dest({ endpoint })]) })
  assert.is(submitted.status, 400)
  assert.equal(submitted.body.error.issues[0].path, 'output.destinations[0].options.endpoint')
  // An endpoint stored while the operator allowed loopback is judged again when the copy connects.
  await guarded.db.run('UPDATE integrations SET settings = ? WHERE account_id = ?', [
    JSON.stringify({ access_key_id: 'S3RVER', endpoint, hint: '****' }),
    guarded.liveAccount,
  ])
  const { body } = await guarded.call('POST', '/v1/render', { body: withDestinations([s3Dest({})]) })
  const done = await guarded.waitFor(body.jobId, ['COMPLETE', 'FAILED'])
  assert.is(done.status, 'COMPLETE')
  assert.is(done.destinations[0].status, 'failed')
  assert.match(done.destinations[0].error, /127\.0\.0\.1.*loopback/)
  await guarded.close()
})

copy('BullMQ: the server copies what a remote worker rendered, before the render completes', async () => {
  // Its own database on each store's pass: the runner may run the two passes side by side.
  const redisUrl = redisDb(process.env.REELFORGE_TEST_STORE === 'postgres' ? 10 : 11)
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 })
  await redis.flushdb()
  redis.disconnect()
  const bull = await testService({ start: true, config: { redisUrl } })
  const worker = await startBullWorker({
    redisUrl,
    renderer: createRenderer({ cacheDir: join(bull.config.dataDir, 'cache'), network: LOOPBACK }),
    storage: new LocalStorage(filesDir(bull.config)),
    workRoot: workDir(bull.config),
    cacheDir: join(bull.config.dataDir, 'cache'),
    concurrency: 1,
    lockMs: 10_000,
    log: () => {},
  })
  try {
    await bull.call('PUT', '/v1/integrations/s3', { body: GOOD })
    const { body } = await bull.call('POST', '/v1/render', { body: withDestinations([s3Dest({ prefix: 'bull' })]) })
    const done = await bull.waitFor(body.jobId, ['COMPLETE', 'FAILED'])
    assert.is(done.status, 'COMPLETE')
    assert.equal(done.destinations, [{ provider: 's3', status: 'done', url: `${endpoint}/${USER_BUCKET}/bull/${done.id}.mp4` }])
    assert.ok((await objectBytes(`bull/${done.id}.mp4`)).bytes.equals((await hostedBytes(bull, done.url)).bytes))
  } finally {
    await worker.close(true)
    await bull.close()
  }
})

copy.after(async () => {
  await svc.close()
  reader.destroy()
  await s3.close()
})
copy.run()
