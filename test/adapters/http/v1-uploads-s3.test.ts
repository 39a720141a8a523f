import { existsSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { ffmpegArgs, runFfmpeg } from '../../../core/index.js'
import { tempDir } from '../../helpers/media.js'
import { startS3 } from '../../helpers/s3.js'
import { type TestService, testService } from '../../helpers/service.js'

// Uploads with S3 storage: POST /v1/upload answers a presigned bucket URL; the client PUTs the bytes to the
// bucket with plain fetch (no key, no SDK) and the service finds the object and imports it like any file.

const dir = tempDir('reelforge-uploads-s3-')
const ctx = {} as { s3: Awaited<ReturnType<typeof startS3>>; svc: TestService }
const test = suite('/v1/upload on S3 storage', ctx)
const withS3 = (sources: object = {}) =>
  testService({
    start: true,
    config: { s3: ctx.s3.config, sources: { quotaBytes: 1024 ** 3, maxFileBytes: 1024 ** 3, imports: 1, uploadPollMs: 100, ...sources } },
  })
test.before(async () => {
  await runFfmpeg(ffmpegArgs`-v error -y -f lavfi -i color=c=red:s=64x48 -frames:v 1 ${join(dir, 'red.png')}`)
  ctx.s3 = await startS3()
  ctx.svc = await withS3()
})
test.after(async () => {
  await ctx.svc.close()
  await ctx.s3.close()
})

/** The keys in the bucket under a source's id. */
async function objectsOf(id: string): Promise<string[]> {
  const { bucket, endpoint, region, prefix, accessKeyId, secretAccessKey } = ctx.s3.config
  const client = new S3Client({ endpoint, region, forcePathStyle: true, credentials: { accessKeyId: accessKeyId!, secretAccessKey: secretAccessKey! } })
  const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: `${prefix}${id}/` }))
  return (listed.Contents ?? []).map((o) => o.Key!.slice(`${prefix}${id}/`.length))
}

/** Polls GET /v1/sources/{id} as a client would until the import ends. */
async function settled(svc: TestService, id: string) {
  for (let i = 0; i < 200; i++) {
    const { body } = await svc.call('GET', `/v1/sources/${id}`)
    if (body.status === 'ready' || body.status === 'failed') return body
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error(`source ${id} did not settle`)
}

const putFile = (url: string, file: string) => fetch(url, { method: 'PUT', body: readFileSync(file) })

test('the URL is a presigned bucket URL; a plain PUT there becomes a ready source, the staged object goes', async () => {
  const upload = (await ctx.svc.call('POST', '/v1/upload', { body: { filename: 'Logo.png' } })).body
  assert.ok(upload.url.startsWith(`${ctx.s3.config.endpoint}/${ctx.s3.config.bucket}/`), upload.url)
  assert.match(upload.url, /X-Amz-Signature=[0-9a-f]{64}/)
  assert.match(upload.url, /X-Amz-Expires=3600/, 'as long-lived as the service URL')
  const put = await putFile(upload.url, join(dir, 'red.png'))
  assert.is(put.status, 200, await put.text())
  const source = await settled(ctx.svc, upload.id)
  assert.equal([source.status, source.type, source.width, source.bytes], ['ready', 'image', 64, statSync(join(dir, 'red.png')).size], source.error)
  assert.match(source.url, /\/Logo\.png$/)
  const served = await ctx.svc.app.request(new URL(source.url).pathname)
  assert.ok(Buffer.from(await served.arrayBuffer()).equals(readFileSync(join(dir, 'red.png'))))
  assert.equal(await objectsOf(upload.id), ['Logo.png'], 'only the stored file is left')
})

test('a staged object the bucket will not delete after the import: the source stays ready, announced once', async () => {
  const svc = await withS3()
  try {
    await svc.call('PUT', '/v1/webhooks', { body: { url: 'http://127.0.0.1:1/unused', events: ['source.ready', 'source.failed'], secret: 'x'.repeat(16) } })
    // The importer's own storage (the service does not hand it out): its deletes fail from now on.
    const storage = (svc.importer as unknown as { storage: { remove(key: string): Promise<void> } }).storage
    storage.remove = async () => {
      throw new Error('the bucket refused the delete')
    }
    const upload = (await svc.call('POST', '/v1/upload', { body: { filename: 'kept.png' } })).body
    assert.is((await putFile(upload.url, join(dir, 'red.png'))).status, 200)
    const source = await settled(svc, upload.id)
    assert.equal([source.status, source.error], ['ready', null])
    const events = await svc.db.all<{ event: string }>('SELECT event FROM webhook_deliveries')
    assert.equal(
      events.map((e) => e.event),
      ['source.ready'],
    )
  } finally {
    await svc.close()
  }
})
test("`proxy: true` gives this service's own URL on S3 storage too (the dashboard); the file ends in the bucket", async () => {
  const upload = (await ctx.svc.call('POST', '/v1/upload', { body: { filename: 'red.png', proxy: true } })).body
  const url = new URL(upload.url)
  assert.is(url.pathname, `/v1/upload/${upload.id}`)
  const put = await ctx.svc.app.request(url.pathname + url.search, { method: 'PUT', body: readFileSync(join(dir, 'red.png')) })
  const source = (await put.json()) as { status: string; error: string }
  assert.is(source.status, 'ready', source.error)
  assert.equal(await objectsOf(upload.id), ['red.png'])
})

test("a PUT again to a used URL is removed, not imported; a rendered source's cached copy goes with DELETE", async () => {
  const upload = (await ctx.svc.call('POST', '/v1/upload', { body: { filename: 'red.png' } })).body
  await putFile(upload.url, join(dir, 'red.png'))
  const source = await settled(ctx.svc, upload.id)
  // The bucket takes PUTs until the URL expires: a second one lands, and the watch removes it (no quota counts it).
  assert.is((await putFile(upload.url, join(dir, 'red.png'))).status, 200)
  for (let i = 0; i < 100 && (await objectsOf(upload.id)).includes('upload.part'); i++) await new Promise((r) => setTimeout(r, 50))
  assert.equal(await objectsOf(upload.id), ['red.png'], 'the second PUT was removed')
  assert.is((await ctx.svc.call('GET', `/v1/sources/${upload.id}`)).body.updated_at, source.updated_at, 'and not imported again')
  const edit = {
    timeline: { tracks: [{ clips: [{ asset: { type: 'image', src: source.url }, start: 0, length: 1 }] }] },
    output: { format: 'jpg', size: { width: 64, height: 48 } },
  }
  const job = (await ctx.svc.call('POST', '/v1/render', { body: edit })).body
  assert.is((await ctx.svc.waitFor(job.jobId, ['COMPLETE', 'FAILED'])).status, 'COMPLETE')
  const cached = join(ctx.svc.config.cacheDir, 'stored', new URL(source.url).pathname.replace('/v1/files/', ''))
  assert.ok(existsSync(cached), 'the render read the file through the local cache')
  assert.is((await ctx.svc.call('DELETE', `/v1/sources/${source.id}`)).status, 200)
  assert.not.ok(existsSync(cached), "this process's cached copy is gone")
  assert.equal(await objectsOf(source.id), [])
})

test('an expired presigned URL is refused by the bucket; the source reads as failed once the grace is over', async () => {
  const svc = await withS3({ uploadTtlSeconds: 1, uploadGraceMs: 1500 })
  try {
    const upload = (await svc.call('POST', '/v1/upload', { body: {} })).body
    await new Promise((r) => setTimeout(r, 2100))
    const put = await putFile(upload.url, join(dir, 'red.png'))
    assert.is(put.status, 403)
    assert.match(await put.text(), /Request has expired/)
    // A PUT begun before the expiry may still land: not failed while the watch looks (clients stop polling on failed).
    assert.is((await svc.call('GET', `/v1/sources/${upload.id}`)).body.status, 'queued')
    await new Promise((r) => setTimeout(r, 1000))
    assert.equal([(await svc.call('GET', `/v1/sources/${upload.id}`)).body.status], ['failed'])
    // (s3rver checks a presigned URL's expiry but not its V4 signature, so tampering is the bucket's to refuse.)
  } finally {
    await svc.close()
  }
})

test('a staged import cut short by a stopped process is imported again by the next start', async () => {
  const svc = await testService({ config: { s3: ctx.s3.config, sources: { quotaBytes: 1024 ** 3, maxFileBytes: 1024 ** 3, imports: 1, uploadPollMs: 100 } } })
  try {
    const upload = (await svc.call('POST', '/v1/upload', { body: { filename: 'red.png' } })).body
    assert.is((await putFile(upload.url, join(dir, 'red.png'))).status, 200)
    // As a process leaves it when it stops right after claiming the file: importing, the bytes still in the bucket.
    assert.ok(await svc.sources.claimStaged(upload.id))
    await svc.start()
    const source = await settled(svc, upload.id)
    assert.equal([source.status, source.width], ['ready', 64], source.error)
    assert.equal(await objectsOf(upload.id), ['red.png'])
  } finally {
    await svc.close()
  }
})

test('a staged file over the per-file limit fails naming sources.maxFileBytes and is deleted', async () => {
  const svc = await withS3({ maxFileBytes: 100 })
  try {
    const upload = (await svc.call('POST', '/v1/upload', { body: {} })).body
    assert.is((await putFile(upload.url, join(dir, 'red.png'))).status, 200, 'the bucket takes it; the service refuses it')
    const source = await settled(svc, upload.id)
    assert.is(source.status, 'failed')
    assert.match(source.error, /sources\.maxFileBytes \(100 bytes\)/)
    assert.equal(await objectsOf(upload.id), [])
  } finally {
    await svc.close()
  }
})

test('a service stopped while it looks for uploads in the bucket makes no storage call after its close', async () => {
  // Its watch looks every 10 ms while an upload is staged; the bucket stops right after the service. A look still
  // in flight at close went on retrying against the stopped bucket for its whole budget (full run 34: the test
  // process outlived its tests).
  const warned: string[] = []
  const warn = console.warn
  console.warn = (...parts: unknown[]) => void warned.push(parts.join(' '))
  try {
    for (let round = 0; round < 6; round++) {
      const s3 = await startS3()
      const svc = await testService({
        start: true,
        config: { s3: s3.config, sources: { quotaBytes: 1024 ** 3, maxFileBytes: 1024 ** 3, imports: 1, uploadPollMs: 10 } },
      })
      await svc.call('POST', '/v1/upload', { body: { filename: 'never-sent.png' } })
      await new Promise((r) => setTimeout(r, 100 + round * 7))
      await svc.close()
      await s3.close()
      await new Promise((r) => setTimeout(r, 400))
    }
  } finally {
    console.warn = warn
  }
  assert.equal(
    warned.filter((line) => /storage unreachable/.test(line)),
    [],
  )
})

test.run()
