import type { ChildProcess } from 'node:child_process'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { tempDir } from '../helpers/media.js'
import { startReceiver } from '../helpers/receiver.js'
import { freshRedis, redisDb } from '../helpers/redis.js'
import { startS3 } from '../helpers/s3.js'
import { api, createKey, freePort, serve, startCli, stop, waitStatus } from '../helpers/serve-child.js'
import { testService, titleEdit } from '../helpers/service.js'
import { tcpProxy } from '../helpers/tcp-proxy.js'

// Object storage (s3rver) out of reach while renders upload: a TCP proxy in front of it is cut (its port closed,
// its connections dropped) and opened again on the same port, as a restarted storage server would be.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const edit = { ...titleEdit(2), output: { format: 'mp4', size: { width: 320, height: 180 }, fps: 25 } }

const outage = suite('storage down for 20 s while a worker uploads')
outage('every render completes, each rendered once: the upload is tried again with its file kept', async () => {
  const started = Date.now()
  const redis = redisDb(13)
  await freshRedis(redis)
  const s3 = await startS3()
  const proxy = await tcpProxy({ host: '127.0.0.1', port: Number(new URL(s3.config.endpoint!).port) })
  const env = {
    REELFORGE_S3_BUCKET: s3.config.bucket,
    REELFORGE_S3_ENDPOINT: `http://127.0.0.1:${proxy.port}`,
    REELFORGE_S3_PREFIX: s3.config.prefix!,
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
    AWS_REGION: 'us-east-1',
  }
  const data = tempDir('reelforge-s3-outage-')
  const key = createKey(data, 10_000)
  const port = await freePort()
  let server: ChildProcess | undefined
  let worker: Awaited<ReturnType<typeof startCli>> | undefined
  try {
    server = await serve(data, port, { REELFORGE_REDIS_URL: redis, ...env })
    worker = await startCli(['worker', '--redis', redis, '--data', data, '--concurrency', '2'], env, /reelforge worker \d+ ready/, 15_000)
    const ids: string[] = []
    for (let i = 0; i < 4; i++) ids.push((await api(port, key, 'POST', '/v1/render', edit)).body.jobId)
    await proxy.cut()
    await sleep(20_000)
    await proxy.restore()
    const jobs = await Promise.all(ids.map((id) => waitStatus(port, key, id, ['COMPLETE', 'FAILED'], 120_000)))
    const log = worker.log()
    if (process.env.SHOW_LOG) console.log(log)
    for (const job of jobs) {
      assert.is(job.status, 'COMPLETE', job.error)
      const rendered = log.split('\n').filter((l) => l.startsWith(`rendering ${job.id} `))
      assert.equal(rendered, [`rendering ${job.id} (attempt 1)`], `${job.id} rendered once:\n${log}`)
      const file = await fetch(job.url)
      assert.is(file.status, 200)
      assert.ok((await file.arrayBuffer()).byteLength > 1000, 'the file is in the bucket')
    }
    // The uploads met the outage (one line when storage went, one when it came back), and no render failed.
    assert.is(log.match(/\[storage\] storage unreachable/g)?.length, 1, log)
    assert.is(log.match(/\[storage\] storage reachable again/g)?.length, 1, log)
    assert.not.match(log, /failed /)
    console.log(`  ${((Date.now() - started) / 1000).toFixed(1)} s`)
  } finally {
    await Promise.all([server && stop(server), worker && stop(worker.child, 'SIGKILL')])
    await proxy.close()
    await s3.close()
  }
})
outage.run()

const refused = suite('storage refusing past its retry budget')
refused("the job fails E_UNAVAILABLE; neither its error nor its callback names the storage's address or bucket", async () => {
  const started = Date.now()
  const s3 = await startS3()
  const proxy = await tcpProxy({ host: '127.0.0.1', port: Number(new URL(s3.config.endpoint!).port) })
  await proxy.cut()
  const rx = await startReceiver()
  process.env.REELFORGE_STORAGE_RETRY_S = '1'
  const svc = await testService({ start: true, config: { s3: { ...s3.config, endpoint: `http://127.0.0.1:${proxy.port}` } } })
  try {
    const { jobId } = (await svc.call('POST', '/v1/render', { body: { ...edit, callback: `${rx.url}/cb` } })).body
    const job = await svc.waitFor(jobId, ['COMPLETE', 'FAILED'])
    assert.is(job.status, 'FAILED')
    assert.match(job.error, /^E_UNAVAILABLE: storage is unavailable \(connection refused, tried for [\d.]+ s\)/)
    let callback: Awaited<ReturnType<typeof rx.waitFor>>[number] | undefined
    for (let n = 1; !callback; n++) callback = (await rx.waitFor(n)).find((r) => r.json?.event === 'render.failed')
    assert.is(callback.json.data.error, job.error)
    for (const text of [job.error, callback.body])
      for (const secret of ['127.0.0.1', String(proxy.port), s3.config.bucket, 'ECONNREFUSED']) assert.not.ok(text.includes(secret), `${secret} in ${text}`)
    console.log(`  ${job.error} (${((Date.now() - started) / 1000).toFixed(1)} s)`)
  } finally {
    delete process.env.REELFORGE_STORAGE_RETRY_S
    await svc.close()
    await rx.close()
    await proxy.close()
    await s3.close()
  }
})
refused.run()
