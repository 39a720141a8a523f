import { existsSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { text } from 'node:stream/consumers'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { filesDir } from '../../service/config.js'
import { S3Storage } from '../../service/storage/s3-storage.js'
import { LocalStorage, materialize, type Storage } from '../../service/storage/storage.js'
import { tempDir } from '../helpers/media.js'
import { startS3 } from '../helpers/s3.js'
import { testService } from '../helpers/service.js'

// One contract, run against both back ends: the local directory and S3 (s3rver through the AWS SDK).

const KEY = '0a1b2c3d-0000-4000-8000-000000000001/clip.mp4'
const backends: [string, () => Promise<{ storage: Storage; close(): Promise<void> }>][] = [
  ['local', async () => ({ storage: new LocalStorage(tempDir('reelforge-files-')), close: async () => {} })],
  [
    's3',
    async () => {
      const s3 = await startS3()
      return { storage: new S3Storage(s3.config), close: s3.close }
    },
  ],
]

for (const [name, make] of backends) {
  const contract = suite(`storage contract: ${name}`)
  contract('put moves the file in; open gives size and byte ranges; remove deletes; bad keys never reach it', async () => {
    const { storage, close } = await make()
    try {
      const dir = tempDir('reelforge-put-')
      const file = join(dir, 'clip.mp4')
      writeFileSync(file, '0123456789abcdef')
      assert.is(await storage.put(KEY, file), KEY)
      assert.not.ok(existsSync(file), 'the local file was moved, not copied')
      const opened = await storage.open(KEY)
      assert.ok(opened)
      assert.is(opened!.size, 16)
      assert.ok(opened!.mtime.getTime() > Date.now() - 60_000)
      assert.is(await text(opened!.read()), '0123456789abcdef')
      assert.is(await text(opened!.read({ start: 4, end: 9 })), '456789')
      const cache = tempDir('reelforge-cache-')
      const local = await materialize(storage, KEY, cache)
      assert.ok(local && existsSync(local), 'materialized for the renderer')
      assert.is(await storage.open('0a1b2c3d-0000-4000-8000-000000000001/none.mp4'), undefined)
      assert.is(await storage.open('../../etc/passwd'), undefined)
      let refused = false
      await storage.put('../escape', file).catch(() => (refused = true))
      assert.ok(refused, 'a key outside <job>/<name> is refused')
      const second = KEY.replace('clip.mp4', 'poster.jpg')
      writeFileSync(file, 'jpg')
      await storage.put(second, file)
      await storage.remove(KEY)
      assert.is(await storage.open(KEY), undefined)
      assert.is(await text((await storage.open(second))!.read()), 'jpg', 'a neighbour under the same id stays')
      await storage.remove(second)
      const folder = storage.localPath(KEY)
      if (folder) assert.not.ok(existsSync(join(folder, '..')), 'the id folder went with its last file')
    } finally {
      await close()
    }
  })
  contract.run()
}

const service = suite('the service on S3 storage')
service('renders land in the bucket, /v1/files proxies them with ranges, and a stored image renders as an asset', async () => {
  const s3 = await startS3()
  const svc = await testService({ start: true, config: { s3: s3.config, isolateRenders: true } })
  try {
    const { jobId } = (
      await svc.call('POST', '/v1/render', {
        key: svc.sandbox,
        body: {
          timeline: { tracks: [{ clips: [{ asset: { type: 'title', text: 's3' }, start: 0, length: 1 }] }] },
          output: { format: 'mp4', size: { width: 160, height: 90 }, fps: 25, poster: { capture: 0.5 } },
        },
      })
    ).body
    const job = await svc.waitFor(jobId, ['COMPLETE', 'FAILED'], svc.sandbox, 90_000)
    assert.is(job.status, 'COMPLETE', job.error)
    assert.not.ok(
      existsSync(join(filesDir(svc.config), jobId)) && readdirSync(join(filesDir(svc.config), jobId)).length,
      'nothing in the local files directory',
    )
    const stored = await new S3Storage(s3.config).open(`${jobId}/${jobId}.mp4`)
    assert.ok(stored && stored.size > 1000, 'the video is in the bucket')
    const path = new URL(job.url).pathname
    const whole = await svc.app.request(path)
    assert.is(whole.status, 200)
    assert.is(Number(whole.headers.get('content-length')), stored!.size)
    const ranged = await svc.app.request(path, { headers: { range: 'bytes=4-11' } })
    assert.is(ranged.status, 206)
    assert.is(Buffer.from(await ranged.arrayBuffer()).toString('latin1'), 'ftypisom')
    assert.is((await svc.app.request(new URL(job.poster).pathname)).status, 200)

    // A generated image (stored in the bucket) used in a timeline by its service URL.
    const image = (await svc.call('POST', '/v1/ai/image', { key: svc.sandbox, body: { prompt: 'a blue square', model: 'flux', width: 512, height: 512 } })).body
    assert.match(image.url, /^http:\/\/reelforge\.test\/v1\/files\//)
    const { jobId: withImage } = (
      await svc.call('POST', '/v1/render', {
        key: svc.sandbox,
        body: {
          timeline: { tracks: [{ clips: [{ asset: { type: 'image', src: image.url }, start: 0, length: 1 }] }] },
          output: { format: 'jpg', size: { width: 160, height: 160 } },
        },
      })
    ).body
    const done = await svc.waitFor(withImage, ['COMPLETE', 'FAILED'], svc.sandbox, 90_000)
    assert.is(done.status, 'COMPLETE', done.error)
  } finally {
    await svc.close()
    await s3.close()
  }
})
service.run()
