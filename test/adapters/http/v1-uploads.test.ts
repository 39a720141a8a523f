import { createReadStream, readFileSync, statSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { ffmpegArgs, runFfmpeg } from '../../../core/index.js'
import { listen } from '../../helpers/browser.js'
import { tempDir } from '../../helpers/media.js'
import { type TestService, testService } from '../../helpers/service.js'

// Direct upload as a client does it: ask for a URL with the key, then PUT the file there over a real socket
// without the key (curl -T, a browser's fetch), streamed; the URL is single-use, expires, and binds its token.

const dir = tempDir('reelforge-uploads-')
const ctx = {} as { svc: TestService; http: Awaited<ReturnType<typeof listen>> }
const test = suite('/v1/upload', ctx)
test.before(async () => {
  await runFfmpeg(ffmpegArgs`-v error -y -f lavfi -i testsrc2=s=640x360:r=30:d=3 -c:v libx264 -preset ultrafast -pix_fmt yuv420p ${join(dir, 'phone.mov')}`)
  writeFileSync(join(dir, 'notes.txt'), 'just some text, not media\n'.repeat(50))
  ctx.svc = await testService({ start: true })
  ctx.http = await listen(ctx.svc)
})
test.after(async () => {
  await ctx.http.close()
  await ctx.svc.close()
})

/** PUTs a file to a URL as a stream (no key), answering status and JSON. */
function put(url: string, file: string, opts: { chunked?: boolean; headersFirst?: boolean } = {}): Promise<{ status: number; body: any }> {
  // Without a content-length Node sends the body chunked: the server learns the size only by reading.
  const headers = opts.chunked ? {} : { 'content-length': String(statSync(file).size) }
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'PUT', headers }, (res) => {
      const chunks: Buffer[] = []
      res
        .on('data', (c) => chunks.push(c))
        .on('end', () => {
          resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString() || 'null') })
          req.destroy()
        })
    })
    // A refusal can arrive before the whole body is sent, and the server then closes: the answer counts, not the EPIPE.
    req.on('error', (e) => setTimeout(() => reject(e), 500))
    // `headersFirst`: like a client sending `Expect: 100-continue`, it waits a moment for an early refusal.
    if (!opts.headersFirst) return void createReadStream(file).pipe(req)
    req.flushHeaders()
    setTimeout(() => !req.destroyed && createReadStream(file).pipe(req), 300)
  })
}
const newUpload = async (body: object = {}) => {
  const r = await ctx.svc.call('POST', '/v1/upload', { body })
  assert.is(r.status, 201, JSON.stringify(r.body))
  return r.body as { id: string; url: string; expires_at: string }
}

test('a streamed PUT to the upload URL becomes a ready source, named by the client, typed by its bytes', async () => {
  const upload = await newUpload({ filename: 'Holiday clip (1).mov', content_type: 'image/png' })
  assert.match(upload.url, new RegExp(`^${ctx.http.url}/v1/upload/${upload.id}\\?token=[\\w-]{40,}$`))
  assert.ok(Date.parse(upload.expires_at) > Date.now() + 50 * 60_000, 'valid for an hour')
  assert.is((await ctx.svc.call('GET', `/v1/sources/${upload.id}`)).body.status, 'queued')
  const done = await put(upload.url, join(dir, 'phone.mov'))
  assert.is(done.status, 200, JSON.stringify(done.body))
  assert.equal([done.body.status, done.body.type, done.body.width, done.body.height, done.body.fps], ['ready', 'video', 640, 360, 30])
  assert.is(done.body.content_type, 'video/mp4', 'the bytes decide, not the declared image/png')
  assert.match(done.body.url, /\/Holiday-clip-1\.mp4$/)
  assert.is(done.body.filename, 'Holiday clip (1).mov', 'the name as given, for lists')
  const served = await fetch(done.body.url)
  assert.ok(Buffer.from(await served.arrayBuffer()).equals(readFileSync(join(dir, 'phone.mov'))))
})

test('the URL is single-use; a wrong token or another id is refused; text is not media', async () => {
  const upload = await newUpload()
  const wrong = upload.url.replace(/token=.*/, 'token=forged')
  assert.is((await put(wrong, join(dir, 'phone.mov'))).status, 403)
  const other = await newUpload()
  assert.is((await put(upload.url.replace(upload.id, other.id), join(dir, 'phone.mov'))).status, 403, "one upload's token does not open another")
  const text = await put(upload.url, join(dir, 'notes.txt'))
  assert.is(text.status, 200)
  assert.is(text.body.status, 'failed')
  assert.match(text.body.error, /not a video, image, audio or font file/)
  assert.is((await put(upload.url, join(dir, 'phone.mov'))).status, 409, 'used once')
  assert.not.match(JSON.stringify(text.body), /\/tmp\/|reelforge-svc/)
})

test('an expired URL is refused and the source reads as failed', async () => {
  const upload = await newUpload()
  await ctx.svc.db.run('UPDATE sources SET upload_expires_at = ? WHERE id = ?', [new Date(Date.now() - 1000).toISOString(), upload.id])
  const r = await put(upload.url, join(dir, 'phone.mov'))
  assert.is(r.status, 403)
  assert.match(r.body.error.message, /expired/)
  const shown = (await ctx.svc.call('GET', `/v1/sources/${upload.id}`)).body
  assert.equal([shown.status, shown.error], ['failed', 'the upload URL expired before the file was sent'])
})

test('past the quota: 413 on the declared length before the token is spent; a lying length is cut off', async () => {
  const size = statSync(join(dir, 'phone.mov')).size
  const svc = await testService({ start: true, config: { sources: { quotaBytes: size - 1, maxFileBytes: 1024 ** 3, imports: 1 } } })
  const http = await listen(svc)
  try {
    const upload = (await svc.call('POST', '/v1/upload', { body: {} })).body
    const declared = await put(upload.url, join(dir, 'phone.mov'), { headersFirst: true })
    assert.is(declared.status, 413)
    assert.match(declared.body.error.message, new RegExp(`storage quota \\(${size - 1} bytes\\)`))
    assert.is((await svc.call('GET', `/v1/sources/${upload.id}`)).body.status, 'queued', 'still usable for a smaller file')
    const chunked = await put(upload.url, join(dir, 'phone.mov'), { chunked: true })
    assert.is(chunked.status, 413)
    const failed = (await svc.call('GET', `/v1/sources/${upload.id}`)).body
    assert.is(failed.status, 'failed')
  } finally {
    await http.close()
    await svc.close()
  }
})

test('POST /v1/upload validates its body and needs a key; another account cannot see the upload', async () => {
  const bad = await ctx.svc.call('POST', '/v1/upload', { body: { filename: '' } })
  assert.is(bad.status, 400)
  assert.is(bad.body.error.issues[0].path, 'filename')
  assert.is((await ctx.svc.call('POST', '/v1/upload', { key: null, body: {} })).status, 401)
  const upload = await newUpload()
  assert.is((await ctx.svc.call('GET', `/v1/sources/${upload.id}`, { key: ctx.svc.sandbox })).status, 404)
})

test.run()
