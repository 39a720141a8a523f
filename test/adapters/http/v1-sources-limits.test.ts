import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { ffmpegArgs, runFfmpeg } from '../../../core/index.js'
import { tempDir } from '../../helpers/media.js'
import { startPythonServer } from '../../helpers/python-http.js'
import { startReceiver } from '../../helpers/receiver.js'
import { type TestService, testService } from '../../helpers/service.js'
import { startS3 } from '../../helpers/s3.js'
import type { WebHost } from '../../helpers/web-hosts.js'

// The per-file limit as a user meets it on both storages (an upload and an import past it are refused naming
// the setting), and `source.ready` reaching the account's global webhook when it lists the event.

const dir = tempDir('reelforge-sources-limits-')
await runFfmpeg(ffmpegArgs`-v error -y -f lavfi -i sine=frequency=440:d=1.5 ${join(dir, 'tone.wav')}`)
await runFfmpeg(ffmpegArgs`-v error -y -f lavfi -i color=c=red:s=64x48 -frames:v 1 ${join(dir, 'red.png')}`)
// Room for the image, not for the wav: the limit decides, far below the quota.
const LIMIT = statSync(join(dir, 'red.png')).size + 100
assert.ok(statSync(join(dir, 'tone.wav')).size > LIMIT)

for (const storage of ['local', 's3'] as const) {
  const ctx = {} as { host: WebHost; rx: Awaited<ReturnType<typeof startReceiver>>; svc: TestService; s3?: Awaited<ReturnType<typeof startS3>> }
  const test = suite(`source limits and events on ${storage} storage`, ctx)
  test.before(async () => {
    ctx.host = await startPythonServer(dir)
    ctx.rx = await startReceiver()
    if (storage === 's3') ctx.s3 = await startS3()
    const sources = { quotaBytes: 10 * 1024 ** 3, maxFileBytes: LIMIT, imports: 1, uploadPollMs: 100 }
    ctx.svc = await testService({ start: true, config: { sources, ...(ctx.s3 ? { s3: ctx.s3.config } : {}) } })
  })
  test.after(async () => {
    await ctx.svc.close()
    await ctx.host.close()
    await ctx.rx.close()
    await ctx.s3?.close()
  })

  /** POST /v1/upload, then one PUT of `file` to the URL it gives: this service's, or the bucket's on S3. */
  async function upload(file: string) {
    const { id, url } = (await ctx.svc.call('POST', '/v1/upload', { body: { filename: file } })).body
    const u = new URL(url)
    const init = { method: 'PUT', body: readFileSync(join(dir, file)) }
    return { id, put: ctx.s3 ? await fetch(u, init) : await ctx.svc.app.request(u.pathname + u.search, init) }
  }
  /** GET /v1/sources/{id} until it is ready or failed. */
  async function settled(id: string) {
    for (let i = 0; i < 200; i++, await new Promise((r) => setTimeout(r, 50))) {
      const { body } = await ctx.svc.call('GET', `/v1/sources/${id}`)
      if (body.status === 'ready' || body.status === 'failed') return body
    }
    throw new Error(`source ${id} did not settle`)
  }

  test('a file past sources.maxFileBytes: the upload and the import are refused naming the setting', async () => {
    const named = new RegExp(`sources\\.maxFileBytes \\(${LIMIT} bytes\\)`)
    const { id, put } = await upload('tone.wav')
    if (storage === 'local') {
      // This service receives the bytes: 413 at once, naming the limit.
      assert.is(put.status, 413)
      const body = (await put.json()) as { error: { message: string } }
      assert.match(body.error.message, named)
    } else assert.is(put.status, 200, 'the bucket takes the PUT; the service then refuses the file')
    const refused = await settled(id)
    assert.is(refused.status, 'failed')
    if (storage === 's3') assert.match(refused.error, named)
    const imported = await ctx.svc.call('POST', '/v1/sources', { body: { url: `${ctx.host.url}/tone.wav` } })
    const failed = await settled(imported.body.id)
    assert.is(failed.status, 'failed')
    assert.match(failed.error, /sources\.maxFileBytes/)
  })

  test('source.ready reaches the global webhook that lists it (no callback given)', async () => {
    const hook = { url: `${ctx.rx.url}/global`, events: ['source.ready'], secret: 'a-global-webhook-secret' }
    assert.is((await ctx.svc.call('PUT', '/v1/webhooks', { body: hook })).status, 200)
    const { id, put } = await upload('red.png')
    assert.is(put.status, 200)
    const ready = await settled(id)
    assert.is(ready.status, 'ready', ready.error)
    const [got] = await ctx.rx.waitFor(1)
    assert.is(got!.path, '/global')
    assert.equal([got!.json.event, got!.json.data], ['source.ready', ready])
  })

  test.run()
}
