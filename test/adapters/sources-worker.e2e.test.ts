import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { decodeFrames, isRed, locate } from '../helpers/frames.js'
import { solidPng, tempDir } from '../helpers/media.js'
import { freshRedis, REDIS_URL } from '../helpers/redis.js'
import { s3Env, startS3 } from '../helpers/s3.js'
import { api, createKey, freePort, serve, startCli, stop, waitStatus } from '../helpers/serve-child.js'

// An upload to `reelforge serve` on S3 storage, rendered by a `reelforge worker` with a data folder of its own:
// the worker never saw the upload and reads the hosted source from the bucket — not over HTTP, which its network
// guard would refuse (loopback is not allowed to it).

test('a source uploaded to the server is rendered by a BullMQ worker that reads it from the bucket', async () => {
  await freshRedis()
  const s3 = await startS3()
  const { bucket, endpoint } = s3.config
  const env = s3Env(s3.config)
  const media = tempDir('reelforge-srcw-media-')
  await solidPng(join(media, 'red.png'), 64, 64, '#ff0000')
  const data = tempDir('reelforge-srcw-server-')
  const key = createKey(data, 1000)
  const port = await freePort()
  const server = await serve(data, port, { ...env, REELFORGE_REDIS_URL: REDIS_URL })
  const base = `http://127.0.0.1:${port}`
  const worker = await startCli(
    ['worker', '--redis', REDIS_URL, '--data', tempDir('reelforge-srcw-worker-'), '--base-url', base],
    env,
    /reelforge worker \d+ ready/,
    15_000,
  )
  try {
    const upload = (await api(port, key, 'POST', '/v1/upload', { filename: 'logo.png' })).body
    // On S3 storage the URL is a presigned bucket URL: the bucket answers the PUT, the server finds the file.
    assert.ok(upload.url.startsWith(`${endpoint}/${bucket}/`), upload.url)
    assert.is((await fetch(upload.url, { method: 'PUT', body: readFileSync(join(media, 'red.png')) })).status, 200)
    let source = { status: 'queued', url: '', error: '' }
    for (const until = Date.now() + 30_000; Date.now() < until && /queued|importing/.test(source.status); await new Promise((r) => setTimeout(r, 200)))
      source = (await api(port, key, 'GET', `/v1/sources/${upload.id}`)).body
    assert.is(source.status, 'ready', source.error)
    assert.match(source.url, new RegExp(`^${base}/v1/files/`))

    const edit = {
      timeline: { background: '#000000', tracks: [{ clips: [{ asset: { type: 'image', src: source.url }, start: 0, length: 1, fit: 'crop' }] }] },
      output: { format: 'mp4', size: { width: 160, height: 90 } },
    }
    const { jobId } = (await api(port, key, 'POST', '/v1/render', edit)).body
    const done = await waitStatus(port, key, jobId, ['COMPLETE', 'FAILED'], 120_000)
    assert.is(done.status, 'COMPLETE', `${done.error}\n${worker.log()}`)
    assert.match(worker.log(), new RegExp(`rendering ${jobId} `), 'the worker rendered it')
    const out = join(tempDir('reelforge-srcw-out-'), 'out.mp4')
    writeFileSync(out, Buffer.from(await (await fetch(done.url)).arrayBuffer()))
    assert.ok(locate(await decodeFrames(out, 160, 90), 0, isRed).count > 160 * 90 * 0.9, 'the frame is the uploaded red image')
  } finally {
    await Promise.all([stop(server), stop(worker.child, 'SIGKILL')])
    await s3.close()
  }
})

test.run()
