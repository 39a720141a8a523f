import { randomBytes } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import pg from 'pg'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { verifyWebhook } from '../../index.js'
import { tempDir } from '../helpers/media.js'
import { PG_URL } from '../helpers/postgres.js'
import { until } from '../helpers/processes.js'
import { startReceiver } from '../helpers/receiver.js'
import { redisDb } from '../helpers/redis.js'
import { bash, daemon, exportedNames, operationsDoc, reelforgeOnPath, runbookBlocks } from '../helpers/runbook.js'
import { startS3 } from '../helpers/s3.js'
import { api, freePort, waitStatus } from '../helpers/serve-child.js'

// docs/operations.md, done as written: its step blocks in order (createdb, Redis, the bucket, an account), two
// front ends and two workers from its process blocks, its webhook, readiness and smoke-render blocks, then
// SIGTERM to each within the grace it promises. Only the settings block is the test's own (loopback
// PostgreSQL, Redis db 13, s3rver), and it must name the same variables as the document's.

const GRACE_S = 5
const pgUrl = new URL(PG_URL)
const redis13 = redisDb(13)

test('the runbook renders through two front ends and two workers, and every process stops within its grace', async () => {
  const t = Date.now()
  const lap = (what: string) => console.log(`  ${what}: ${((Date.now() - t) / 1000).toFixed(1)} s`)
  const blocks = runbookBlocks(operationsDoc())
  const of = (kind: string) => blocks.filter((b) => b.kind === kind).map((b) => b.code)
  assert.equal([of('settings').length, of('front-end').length, of('worker').length, of('ready').length], [1, 1, 1, 1])
  assert.ok(of('step').length >= 4, 'steps for PostgreSQL, Redis, the bucket and an account')

  const s3 = await startS3()
  const receiver = await startReceiver()
  const redis = new Redis(redis13)
  await redis.flushdb()
  const id = randomBytes(4).toString('hex')
  const database = `rf_runbook_${id}`
  const secret = `runbook-${randomBytes(12).toString('hex')}`
  const dir = tempDir('reelforge-runbook-')
  const [fe1, fe2, w1, w2] = [await freePort(), await freePort(), await freePort(), await freePort()]
  const settings = `
export PGHOST=${pgUrl.hostname} PGPORT=${pgUrl.port} PGUSER=${pgUrl.username} PGPASSWORD=''
export DB_NAME=${database}
export REELFORGE_DATABASE_URL="postgres://$PGUSER@$PGHOST:$PGPORT/$DB_NAME"
export REELFORGE_REDIS_URL=${redis13}
export REELFORGE_S3_BUCKET=runbook-${id} REELFORGE_S3_REGION=us-east-1 REELFORGE_S3_PREFIX=renders/
export REELFORGE_S3_ENDPOINT=${s3.config.endpoint}
export AWS_ACCESS_KEY_ID=S3RVER AWS_SECRET_ACCESS_KEY=S3RVER
export REELFORGE_BASE_URL=http://127.0.0.1:${fe1}
export REELFORGE_SECRET_KEY=runbook-secret-${id}-0123456789
export REELFORGE_DATA=${dir}/scratch
export HOST=127.0.0.1 PORT=${fe1}
export REELFORGE_WORKER_HOST=127.0.0.1 REELFORGE_WORKER_PORT=${w1}
export REELFORGE_STOP_GRACE_S=${GRACE_S}
export WEBHOOK_URL=${receiver.url}/hook
export WEBHOOK_SECRET=${secret}
`
  assert.equal(exportedNames(settings), exportedNames(of('settings')[0]!), "the test's settings name the document's variables")
  // What no document sets: webhooks to loopback (the SSRF guard), and nothing inherited from this test's own run.
  const inherited = Object.entries(process.env).filter(([k]) => !/^(REELFORGE_|AWS_|PG)/.test(k))
  const env = {
    ...Object.fromEntries(inherited as [string, string][]),
    PATH: `${reelforgeOnPath()}:${process.env.PATH}`,
    REELFORGE_ALLOW_NETWORKS: '127.0.0.0/8',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    AWS_EC2_METADATA_DISABLED: 'true',
  }
  // Each machine's own values: its ports and scratch folder (and, for a smoke render, the front end it reaches).
  const machine = (i: number, more = '') => `export PORT=${[fe1, fe2][i]} REELFORGE_WORKER_PORT=${[w1, w2][i]} REELFORGE_DATA=${dir}/machine-${i}\n${more}`
  const processes: ReturnType<typeof daemon>[] = []
  try {
    const steps = await bash(`${settings}\n${of('step').join('\n')}`, env, dir)
    assert.is(steps.code, 0, steps.output)
    assert.match(steps.output, /PONG/)
    assert.match(steps.output, /storage: created the bucket "runbook-/)
    assert.match(steps.output, /storage: ok \(s3:\/\/runbook-/)
    const apiKey = steps.env.API_KEY!
    assert.match(apiKey, /^rf_live_/)
    lap('steps')

    for (const i of [0, 1]) {
      mkdirSync(join(dir, `machine-${i}`), { recursive: true })
      processes.push(daemon(`${settings}\n${machine(i)}`, of('front-end')[0]!, env, dir))
      processes.push(daemon(`${settings}\n${machine(i)}`, of('worker')[0]!, env, dir))
    }
    for (const i of [0, 1]) {
      const ready = () => bash(`${settings}\n${machine(i)}\n${of('ready')[0]}`, env, dir, 10_000)
      await until(`machine ${i} ready`, async () => (await ready()).code === 0 || processes.some((p) => p.child.exitCode !== null), 90_000)
      assert.ok(
        processes.every((p) => p.child.exitCode === null),
        processes.map((p) => p.log()).join('\n---\n'),
      )
      assert.match((await ready()).stdout, /"ready":true,"database":true,"redis":true,"storage":true/)
    }
    lap('two front ends and two workers ready')

    const withKey = `export API_KEY=${apiKey}`
    for (const block of of('after-start')) {
      const r = await bash(`${settings}\n${withKey}\n${block}`, env, dir)
      assert.is(r.code, 0, r.output)
    }
    const jobs: string[] = []
    for (const i of [0, 1, 0, 1]) {
      const via = `export REELFORGE_BASE_URL=http://127.0.0.1:${[fe1, fe2][i]}`
      const r = await bash(`${settings}\n${machine(i, via)}\n${withKey}\n${of('smoke')[0]}`, env, dir)
      assert.is(r.code, 0, r.output)
      jobs.push(JSON.parse(r.stdout).jobId)
    }
    for (const [n, jobId] of jobs.entries()) {
      const done = await waitStatus([fe1, fe2][n % 2]!, apiKey, jobId, ['COMPLETE', 'FAILED'], 120_000)
      assert.is(done.status, 'COMPLETE', done.error)
      const file = await fetch(done.url)
      assert.is(file.status, 200)
      assert.ok((await file.arrayBuffer()).byteLength > 1000)
    }
    const workers = processes.filter((_, i) => i % 2 === 1)
    assert.ok(
      workers.every((w) => /rendering /.test(w.log())),
      `both workers rendered:\n${workers.map((w) => w.log()).join('\n---\n')}`,
    )
    const hooks = await until('render.complete for each job', () => {
      const complete = receiver.received.filter((r) => r.json?.event === 'render.complete')
      return new Set(complete.map((r) => r.json.data.id)).size === jobs.length ? complete : undefined
    })
    for (const hook of hooks) assert.ok(verifyWebhook(hook.body, String(hook.headers['x-reelforge-signature']), secret), 'signed with WEBHOOK_SECRET')
    assert.equal(new Set(hooks.map((h) => h.json.data.id)), new Set(jobs))
    assert.is((await api(fe2, apiKey, 'GET', '/v1/wallet')).body.held, 0)
    lap('4 renders through both front ends and both workers')

    const stopped = await Promise.all(
      processes.map(async (p) => {
        const sent = Date.now()
        const code = await new Promise<number | null>((r) => (p.child.once('exit', (c) => r(c)), p.child.kill('SIGTERM')))
        return { code, seconds: (Date.now() - sent) / 1000 }
      }),
    )
    console.log(`  SIGTERM: ${stopped.map((s) => `${s.code} after ${s.seconds.toFixed(1)} s`).join(', ')}`)
    for (const [i, s] of stopped.entries()) {
      assert.is(s.code, 0, processes[i]!.log())
      assert.ok(s.seconds <= GRACE_S + 5, `stopped within the grace and 5 s (${s.seconds} s)`)
    }
  } finally {
    for (const p of processes) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL')
    await redis.flushdb()
    redis.disconnect()
    await receiver.close()
    await s3.close()
    const admin = new pg.Client({ connectionString: PG_URL })
    await admin.connect()
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)
    await admin.end()
  }
  lap('the runbook')
})

test.run()
