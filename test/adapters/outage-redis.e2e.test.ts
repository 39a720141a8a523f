import type { ChildProcess } from 'node:child_process'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { tempDir } from '../helpers/media.js'
import { freshRedis, redisDb } from '../helpers/redis.js'
import { api, createKey, freePort, startCli, stop, waitStatus } from '../helpers/serve-child.js'
import { titleEdit } from '../helpers/service.js'
import { tcpProxy } from '../helpers/tcp-proxy.js'

// Redis out of reach for 30 s under `serve --redis` and a `reelforge worker`, both logging JSON: a TCP proxy in
// front of the shared test Redis is cut, so nothing else loses it. Each process says once that Redis went and
// once that it is back — not a stack trace per connection and reconnect — and renders go on after.

const OUTAGE_MS = 30_000
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const edit = { ...titleEdit(1), output: { format: 'mp4', size: { width: 320, height: 180 }, fps: 25 } }

/** Every line of a process's output as the JSON object it must be. */
function jsonLines(output: string): { time: string; level: string; component: string; message: string }[] {
  return output
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => {
      const entry = JSON.parse(l)
      assert.equal(Object.keys(entry), ['time', 'level', 'component', 'message'], l)
      assert.ok(!Number.isNaN(Date.parse(entry.time)) && ['info', 'warn', 'error'].includes(entry.level), l)
      return entry
    })
}

const test = suite('Redis down for 30 s')
test('each process logs the outage in a few JSON lines, and renders go on after', async () => {
  const started = Date.now()
  const real = redisDb(15)
  await freshRedis(real)
  const proxy = await tcpProxy({ host: '127.0.0.1', port: Number(new URL(real).port) })
  const redis = proxy.via(real)
  const data = tempDir('reelforge-redis-outage-')
  const key = createKey(data, 10_000)
  const port = await freePort()
  let server: Awaited<ReturnType<typeof startCli>> | undefined
  let worker: Awaited<ReturnType<typeof startCli>> | undefined
  try {
    const ready = /reelforge listening on http:\/\/127\.0\.0\.1:\d+/
    server = await startCli(['serve', '--port', String(port), '--data', data, '--redis', redis], { REELFORGE_LOG: 'json' }, ready, 15_000)
    worker = await startCli(['worker', '--redis', redis, '--data', data, '--log-format', 'json'], {}, /reelforge worker \d+ ready/, 15_000)
    await sleep(500) // the start-up lines are all out
    const before = { serve: server.log().length, worker: worker.log().length }
    await proxy.cut()
    await sleep(OUTAGE_MS)
    await proxy.restore()
    const after = (await api(port, key, 'POST', '/v1/render', edit)).body.jobId
    const job = await waitStatus(port, key, after, ['COMPLETE', 'FAILED'], 60_000)
    assert.is(job.status, 'COMPLETE', job.error)
    // Each process says Redis is back once its last connection is (reconnects wait up to 5 s).
    for (let until = Date.now() + 15_000; Date.now() < until && ![server, worker].every((p) => /Redis reachable again/.test(p.log())); ) await sleep(100)

    for (const [name, proc] of [
      ['serve', server],
      ['worker', worker],
    ] as const) {
      const all = jsonLines(proc.log())
      const during = jsonLines(proc.log().slice(before[name]))
      const text = during.map((l) => `${l.level} ${l.component}: ${l.message}`).join('\n')
      assert.ok(during.length <= 10, `${name}: ${during.length} lines for a 30 s outage:\n${text}`)
      assert.is(during.filter((l) => l.component === 'redis' && /^Redis unreachable/.test(l.message)).length, 1, `${name}:\n${text}`)
      assert.is(during.filter((l) => l.component === 'redis' && /^Redis reachable again/.test(l.message)).length, 1, `${name}:\n${text}`)
      assert.not.match(text, /Unhandled error event|\n\s+at /, `${name}: no stack traces`)
      assert.ok(
        all.some((l) => l.component === name && /ready|listening/.test(l.message)),
        `${name} names itself`,
      )
      console.log(`  ${name}: ${during.length} lines during the outage${process.env.SHOW_LOG ? `\n${text}` : ''}`)
    }
    console.log(`  ${((Date.now() - started) / 1000).toFixed(1)} s`)
  } finally {
    await Promise.all([server && stop(server.child as ChildProcess), worker && stop(worker.child, 'SIGKILL')])
    await proxy.close()
  }
})

test.run()
