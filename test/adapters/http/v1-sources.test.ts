import { copyFileSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { ffmpegArgs, runFfmpeg } from '../../../core/index.js'
import { decodeFrames, isRed, locate } from '../../helpers/frames.js'
import { tempDir } from '../../helpers/media.js'
import { startPythonServer } from '../../helpers/python-http.js'
import { startReceiver } from '../../helpers/receiver.js'
import { type TestService, testService } from '../../helpers/service.js'
import { startS3 } from '../../helpers/s3.js'
import type { WebHost } from '../../helpers/web-hosts.js'

// Hosted sources as a user meets them: files on Python's http.server (HTTP/1.0, connection: close) imported
// by URL, read for what they really are, served back, used as `src` in a render, kept per account, deleted.

const dir = tempDir('reelforge-sources-')
const FONT = 'node_modules/@fontsource/clear-sans/files/clear-sans-latin-400-normal.woff2'
await runFfmpeg(
  ffmpegArgs`-v error -y -f lavfi -i testsrc2=s=320x240:r=25:d=2 -f lavfi -i sine=d=2 -c:v libx264 -preset ultrafast -pix_fmt yuv420p -c:a aac -shortest ${join(dir, 'clip.mp4')}`,
)
await runFfmpeg(ffmpegArgs`-v error -y -f lavfi -i color=c=red:s=64x48 -frames:v 1 ${join(dir, 'red.png')}`)
await runFfmpeg(ffmpegArgs`-v error -y -f lavfi -i sine=frequency=440:d=1.5 ${join(dir, 'tone.wav')}`)
copyFileSync(FONT, join(dir, 'brand.woff2'))
writeFileSync(
  join(dir, 'logo.svg'),
  '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><script>alert(1)</script><rect width="40" height="20"/></svg>',
)
writeFileSync(join(dir, 'fake.mp4'), '<!DOCTYPE html><html><body>Not Found</body></html>')

// The same user's view on both storages: the local directory and S3 (s3rver through the AWS SDK).
for (const storage of ['local', 's3'] as const) {
  const ctx = {} as { host: WebHost; rx: Awaited<ReturnType<typeof startReceiver>>; svc: TestService; s3?: Awaited<ReturnType<typeof startS3>> }
  const test = suite(`/v1/sources on ${storage} storage`, ctx)
  test.before(async () => {
    ctx.host = await startPythonServer(dir)
    ctx.rx = await startReceiver()
    if (storage === 's3') ctx.s3 = await startS3()
    // On S3, uploads go to presigned bucket URLs and the importer looks for them every 100 ms.
    const sources = { quotaBytes: 10 * 1024 ** 3, maxFileBytes: 1024 ** 3, imports: 2, uploadPollMs: 100 }
    ctx.svc = await testService({ start: true, config: ctx.s3 ? { s3: ctx.s3.config, sources } : {} })
  })
  test.after(async () => {
    await ctx.svc.close()
    await ctx.host.close()
    await ctx.rx.close()
    await ctx.s3?.close()
  })

  /** Every stored object whose key starts with the source's id, asked of the storage itself (a bucket listing on S3). */
  async function storedUnder(id: string): Promise<string[]> {
    if (ctx.s3) {
      const { S3Client, ListObjectsV2Command } = await import('@aws-sdk/client-s3')
      const { bucket, endpoint, region, prefix, accessKeyId, secretAccessKey } = ctx.s3.config
      const client = new S3Client({ endpoint, region, forcePathStyle: true, credentials: { accessKeyId: accessKeyId!, secretAccessKey: secretAccessKey! } })
      const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: `${prefix ?? ''}${id}/` }))
      return (listed.Contents ?? []).map((o) => o.Key!)
    }
    const folder = join(ctx.svc.config.dataDir, 'files', id)
    return existsSync(folder) ? readdirSync(folder) : []
  }

  /** Imports `file` from the Python host and waits for the import to end. */
  async function imported(file: string, callback?: string) {
    const res = await ctx.svc.call('POST', '/v1/sources', { body: { url: `${ctx.host.url}/${file}`, ...(callback ? { callback } : {}) } })
    assert.is(res.status, 201, JSON.stringify(res.body))
    assert.is(res.body.status, 'queued')
    await ctx.svc.importer.idle()
    return (await ctx.svc.call('GET', `/v1/sources/${res.body.id}`)).body
  }

  /**
   * Uploads `file` as a client does: POST /v1/upload, one PUT of the bytes to the URL (this service's on local
   * storage, the bucket's presigned URL on S3), then GET until the source settles. `svc`: another service.
   */
  async function uploaded(file: string, svc = ctx.svc) {
    const upload = (await svc.call('POST', '/v1/upload', { body: { filename: file } })).body
    const url = new URL(upload.url)
    const put = ctx.s3
      ? await fetch(url, { method: 'PUT', body: readFileSync(join(dir, file)) })
      : await svc.app.request(url.pathname + url.search, { method: 'PUT', body: readFileSync(join(dir, file)) })
    for (let i = 0; put.status === 200 && i < 200; i++) {
      const { body } = await svc.call('GET', `/v1/sources/${upload.id}`)
      if (body.status === 'ready' || body.status === 'failed') return { put, source: body }
      await new Promise((r) => setTimeout(r, 50))
    }
    return { put, source: (await svc.call('GET', `/v1/sources/${upload.id}`)).body }
  }

  test('an uploaded wav and font become ready as what their bytes are', async () => {
    const { source: audio } = await uploaded('tone.wav')
    assert.equal(
      [audio.status, audio.type, audio.content_type, audio.bytes],
      ['ready', 'audio', 'audio/wav', statSync(join(dir, 'tone.wav')).size],
      audio.error,
    )
    assert.ok(Math.abs(audio.duration - 1.5) < 0.05)
    const { source: font } = await uploaded('brand.woff2')
    assert.equal([font.status, font.type, font.content_type], ['ready', 'font', 'font/woff2'], font.error)
    const served = await ctx.svc.app.request(new URL(font.url).pathname)
    assert.ok(Buffer.from(await served.arrayBuffer()).equals(readFileSync(join(dir, 'brand.woff2'))), 'the hosted font is the same bytes')
  })

  test('a video, an image, a wav and a font become ready with what ffprobe and their bytes say', async () => {
    const video = await imported('clip.mp4', `${ctx.rx.url}/hook`)
    assert.is(video.status, 'ready', video.error)
    assert.equal(
      { type: video.type, content_type: video.content_type, width: video.width, height: video.height, fps: video.fps, has_audio: video.has_audio },
      { type: 'video', content_type: 'video/mp4', width: 320, height: 240, fps: 25, has_audio: true },
    )
    assert.ok(Math.abs(video.duration - 2) < 0.1, `duration ${video.duration}`)
    assert.is(video.bytes, statSync(join(dir, 'clip.mp4')).size)
    const served = await ctx.svc.app.request(new URL(video.url).pathname)
    assert.ok(Buffer.from(await served.arrayBuffer()).equals(readFileSync(join(dir, 'clip.mp4'))), 'the hosted file is the same bytes')

    const image = await imported('red.png')
    assert.equal([image.status, image.type, image.content_type, image.width, image.height, image.duration], ['ready', 'image', 'image/png', 64, 48, null])
    const audio = await imported('tone.wav')
    assert.equal([audio.status, audio.type, audio.content_type, audio.width, audio.has_audio], ['ready', 'audio', 'audio/wav', null, true])
    assert.ok(Math.abs(audio.duration - 1.5) < 0.05)
    const font = await imported('brand.woff2')
    assert.equal([font.status, font.type, font.content_type], ['ready', 'font', 'font/woff2'])

    const [hook] = await ctx.rx.waitFor(1)
    assert.is(hook!.json.event, 'source.ready')
    assert.equal(hook!.json.data, video, 'the callback carries the record GET shows')
  })

  test('a page that calls itself .mp4 fails with what it is; source.failed is sent', async () => {
    const before = ctx.rx.received.length
    const fake = await imported('fake.mp4', `${ctx.rx.url}/fake`)
    assert.is(fake.status, 'failed')
    assert.match(fake.error, /fake\.mp4 is not a video, image, audio or font file \(it is an HTML page\)/)
    assert.is(fake.url, null)
    const got = await ctx.rx.waitFor(before + 1)
    assert.is(got.at(-1)!.json.event, 'source.failed')
    const missing = await imported('nothing-here.mp4')
    assert.is(missing.status, 'failed')
    assert.match(missing.error, /404/)
  })

  test("a hosted URL is a render's src: the image is drawn", async () => {
    const image = await imported('red.png')
    const edit = {
      timeline: { background: '#000000', tracks: [{ clips: [{ asset: { type: 'image', src: image.url }, start: 0, length: 1, fit: 'crop' }] }] },
      output: { format: 'mp4', size: { width: 160, height: 90 } },
    }
    const { body } = await ctx.svc.call('POST', '/v1/render', { body: edit })
    const done = await ctx.svc.waitFor(body.jobId, ['COMPLETE', 'FAILED'])
    assert.is(done.status, 'COMPLETE', done.error)
    const out = join(dir, 'render.mp4')
    writeFileSync(out, Buffer.from(await (await ctx.svc.app.request(new URL(done.url).pathname)).arrayBuffer()))
    assert.ok(locate(await decodeFrames(out, 160, 90), 0, isRed).count > 160 * 90 * 0.9, 'the frame is red')
  })

  test('an SVG is hosted as an image but served so that nothing in it runs on this origin', async () => {
    const svg = await imported('logo.svg')
    assert.equal([svg.status, svg.type, svg.content_type], ['ready', 'image', 'image/svg+xml'], svg.error)
    const res = await ctx.svc.app.request(new URL(svg.url).pathname)
    assert.match(res.headers.get('content-security-policy')!, /sandbox/)
    assert.is(res.headers.get('x-content-type-options'), 'nosniff')
  })

  test('bad input names the field; private addresses are refused at once', async () => {
    const bad = async (body: unknown, path: string) => {
      const r = await ctx.svc.call('POST', '/v1/sources', { body })
      assert.is(r.status, 400, JSON.stringify(r.body))
      assert.ok(
        r.body.error.issues.some((i: { path: string }) => i.path === path),
        JSON.stringify(r.body.error),
      )
    }
    await bad({}, 'url')
    await bad({ url: 'ftp://example.com/a.mp4' }, 'url')
    await bad({ url: '/etc/passwd' }, 'url')
    await bad({ url: 'https://example.com/a.mp4', renditions: 'x' }, 'renditions')
    const strict = await testService({ config: { network: { allow: [] } } })
    try {
      const r = await strict.call('POST', '/v1/sources', { body: { url: 'http://127.0.0.1:9/a.mp4' } })
      assert.is(r.status, 400)
      assert.equal(r.body.error.issues[0].path, 'url')
    } finally {
      await strict.close()
    }
  })

  test('another account or environment cannot read, list or delete; DELETE removes the file', async () => {
    const audio = await imported('tone.wav')
    // The helper's sandbox key differs in account and environment; a live key of a new account in account only.
    for (const other of [ctx.svc.sandbox, (await ctx.svc.keys.create()).key]) {
      assert.is((await ctx.svc.call('GET', `/v1/sources/${audio.id}`, { key: other })).status, 404)
      assert.is((await ctx.svc.call('DELETE', `/v1/sources/${audio.id}`, { key: other })).status, 404)
      const listed = await ctx.svc.call('GET', '/v1/sources', { key: other })
      assert.is(listed.status, 200)
      assert.not.ok(listed.body.sources.some((s: { id: string }) => s.id === audio.id))
    }
    const mine = await ctx.svc.call('GET', '/v1/sources?type=audio&status=ready')
    assert.ok(mine.body.sources.some((s: { id: string }) => s.id === audio.id))
    assert.ok(mine.body.sources.every((s: { type: string }) => s.type === 'audio'))
    assert.is((await ctx.svc.call('GET', '/v1/sources?status=done')).status, 400)
    assert.is((await ctx.svc.call('DELETE', `/v1/sources/${audio.id}`)).status, 200)
    assert.is((await ctx.svc.app.request(new URL(audio.url).pathname)).status, 404, 'the file is gone')
    assert.is((await ctx.svc.call('GET', `/v1/sources/${audio.id}`)).status, 404)
  })

  test('an uploaded video with renditions: DELETE leaves no object of it in the storage', async () => {
    const { source: video } = await uploaded('clip.mp4')
    assert.equal([video.status, video.type], ['ready', 'video'], video.error)
    // Renditions come with imports; this upload's stored file and an imported copy with one rendition.
    const withRendition = await ctx.svc.call('POST', '/v1/sources', {
      body: { url: `${ctx.host.url}/clip.mp4`, renditions: [{ format: 'jpg', size: { width: 64, height: 48 } }] },
    })
    await ctx.svc.importer.idle()
    for (const id of [video.id, withRendition.body.id]) {
      assert.ok((await storedUnder(id)).length >= 1, `${id} has stored files`)
      assert.is((await ctx.svc.call('DELETE', `/v1/sources/${id}`)).status, 200)
      assert.equal(await storedUnder(id), [], `nothing of ${id} is left in the ${storage} storage`)
    }
  })

  test('the quota: a file larger than what is left fails naming it; a full account is refused with 422', async () => {
    // Room for the image and the font exactly: the video does not fit, and after the two the account is full.
    const quota = statSync(join(dir, 'red.png')).size + statSync(join(dir, 'brand.woff2')).size
    const svc = await testService({ start: true, config: { sources: { quotaBytes: quota, maxFileBytes: 1024 ** 3, imports: 1 } } })
    try {
      const post = (file: string) => svc.call('POST', '/v1/sources', { body: { url: `${ctx.host.url}/${file}` } })
      const big = await post('clip.mp4')
      await svc.importer.idle()
      const failed = (await svc.call('GET', `/v1/sources/${big.body.id}`)).body
      assert.is(failed.status, 'failed')
      assert.match(failed.error, new RegExp(`quota has ${quota} bytes left`))
      assert.is((await post('red.png')).status, 201)
      assert.is((await post('brand.woff2')).status, 201)
      await svc.importer.idle()
      const full = await post('red.png')
      assert.is(full.status, 422, JSON.stringify(full.body))
      assert.match(full.body.error.message, new RegExp(`quota \\(${quota} bytes\\) is used up`))
    } finally {
      await svc.close()
    }
  })

  test.run()
}
