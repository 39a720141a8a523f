import { createServer } from 'node:net'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { tempDir } from '../helpers/media.js'
import { cleanEnv, linesOf, runCli, type CliRun } from '../helpers/cli-run.js'
import { freshPostgres, PG_URL } from '../helpers/postgres.js'
import { REDIS_URL, redisDb } from '../helpers/redis.js'
import { startS3 } from '../helpers/s3.js'
import { freePort, startCli } from '../helpers/serve-child.js'
import { tcpProxy } from '../helpers/tcp-proxy.js'
import { until } from '../helpers/processes.js'

// `reelforge serve` as an operator meets it: a start that cannot work ends at once with one line saying why;
// once running, /readyz follows each dependency down and back up; SIGTERM ends it within its grace whatever
// its connections are doing. Redis db 12 (BullMQ's queue names are fixed: other tests use their own dbs).

const redis12 = redisDb(12)
const serveArgs = (data: string, ...more: string[]) => ['serve', '--port', '0', '--data', data, ...more]
const oneLine = (run: CliRun, code: number, pattern: RegExp) => {
  assert.is(run.code, code, run.output)
  assert.equal(linesOf(run).length, 1, `one line, not:\n${run.output}`)
  assert.match(run.output, pattern)
}
const timed = async (what: string, f: () => Promise<void>) => {
  const t = Date.now()
  await f()
  console.log(`  ${what}: ${((Date.now() - t) / 1000).toFixed(1)} s`)
}

test('flags that cannot work or do nothing in this mode: exit 64 with one line each', () =>
  timed('refusals', async () => {
    const data = tempDir('reelforge-serve-refuse-')
    const [flag, env, segments, concurrency, cap] = await Promise.all([
      runCli(serveArgs(data, '--redis', 'notaurl'), cleanEnv()),
      runCli(serveArgs(data), cleanEnv({ REELFORGE_REDIS_URL: 'http://127.0.0.1:6379' })),
      runCli(serveArgs(data, '--segments', '4'), cleanEnv()),
      runCli(serveArgs(data, '--redis', redis12, '--concurrency', '2'), cleanEnv()),
      runCli(serveArgs(data, '--redis', redis12), cleanEnv({ REELFORGE_ACCOUNT_CONCURRENCY: '2' })),
    ])
    oneLine(flag, 64, /^reelforge serve: --redis must be a redis:\/\/ or rediss:\/\/ URL, not "notaurl"/)
    oneLine(env, 64, /REELFORGE_REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL, not "http:\/\/127\.0\.0\.1:6379"/)
    oneLine(segments, 64, /--segments splits renders over BullMQ workers: it needs --redis/)
    oneLine(concurrency, 64, /--concurrency does nothing with --redis: renders run on `reelforge worker` processes \(their --concurrency\)/)
    oneLine(cap, 64, /REELFORGE_ACCOUNT_CONCURRENCY caps the embedded queue: BullMQ \(--redis\) has no per-account cap/)
  }))

test('a dependency missing at start: Redis, the bucket, S3 credentials, the S3 endpoint, the database — exit 1, one line', () =>
  timed('unreachable at start', async () => {
    const s3 = await startS3()
    const closed = await freePort()
    const data = tempDir('reelforge-serve-deps-')
    const bucket = (over: Record<string, string>) =>
      cleanEnv({
        REELFORGE_S3_ENDPOINT: s3.config.endpoint!,
        REELFORGE_S3_BUCKET: 'reelforge-test',
        AWS_ACCESS_KEY_ID: 'S3RVER',
        AWS_SECRET_ACCESS_KEY: 'S3RVER',
        ...over,
      })
    const database = new URL(PG_URL)
    database.pathname = '/reelforge_no_such_db'
    try {
      const [redis, missing, noKeys, deadEndpoint, noDatabase] = await Promise.all([
        runCli(serveArgs(data, '--redis', `redis://127.0.0.1:${closed}`), cleanEnv()),
        runCli(serveArgs(data), bucket({ REELFORGE_S3_BUCKET: 'no-such-bucket' })),
        runCli(serveArgs(data), bucket({ AWS_ACCESS_KEY_ID: '', AWS_SECRET_ACCESS_KEY: '' })),
        runCli(serveArgs(data), bucket({ REELFORGE_S3_ENDPOINT: `http://127.0.0.1:${closed}` })),
        runCli(serveArgs(data, '--database', database.toString()), cleanEnv()),
      ])
      oneLine(redis, 1, new RegExp(`^reelforge serve: Redis at redis://127\\.0\\.0\\.1:${closed} does not answer \\(.*ECONNREFUSED`))
      oneLine(missing, 1, /^reelforge serve: storage: the bucket "no-such-bucket" does not exist/)
      oneLine(noKeys, 1, /^reelforge serve: storage: no S3 credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY/)
      oneLine(deadEndpoint, 1, new RegExp(`^reelforge serve: storage: cannot reach http://127\\.0\\.0\\.1:${closed} \\(.*ECONNREFUSED`))
      oneLine(noDatabase, 1, /^reelforge serve: database: database "reelforge_no_such_db" does not exist \(create it first: createdb reelforge_no_such_db\)/)
    } finally {
      await s3.close()
    }
  }))

test('a port in use: exit 1 with one line naming it (not a server left running without a port)', () =>
  timed('port in use', async () => {
    const taken = createServer().listen(0, '127.0.0.1')
    await new Promise((r) => taken.once('listening', r))
    const port = (taken.address() as { port: number }).port
    try {
      const run = await runCli(['serve', '--port', String(port), '--data', tempDir('reelforge-serve-port-')], cleanEnv())
      oneLine(run, 1, new RegExp(`^reelforge serve: port ${port} on 127\\.0\\.0\\.1 is already in use \\(EADDRINUSE\\)`))
    } finally {
      taken.close()
    }
  }))

test('/readyz follows PostgreSQL, Redis and the bucket down and back up; SIGTERM with Redis down ends within the grace', () =>
  timed('readiness and SIGTERM', async () => {
    const s3 = await startS3()
    const proxies = {
      database: await tcpProxy({ port: Number(new URL(PG_URL).port) }),
      redis: await tcpProxy({ port: Number(new URL(REDIS_URL).port) }),
      storage: await tcpProxy({ port: Number(new URL(s3.config.endpoint!).port) }),
    }
    const port = await freePort()
    const env = cleanEnv({
      REELFORGE_S3_ENDPOINT: proxies.storage.via(s3.config.endpoint!),
      REELFORGE_S3_BUCKET: s3.config.bucket,
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
      REELFORGE_STOP_GRACE_S: '3',
    })
    const args = ['serve', '--port', String(port), '--data', tempDir('reelforge-serve-ready-'), '--redis', proxies.redis.via(redis12)]
    const database = proxies.database.via(await freshPostgres())
    const serving = startCli([...args, '--database', database], env, /listening on http:\/\/127\.0\.0\.1:\d+/, 30_000)
    const readyz = async () => {
      const r = await fetch(`http://127.0.0.1:${port}/readyz`)
      return { status: r.status, body: (await r.json()) as Record<string, boolean> }
    }
    let child: Awaited<typeof serving>['child'] | undefined
    try {
      const started = await serving
      child = started.child
      const log = started.log
      assert.equal(await readyz(), { status: 200, body: { ready: true, database: true, redis: true, storage: true, shutting_down: false } })
      for (const name of ['database', 'redis', 'storage'] as const) {
        await proxies[name].cut()
        const down = await until(`${name} not ready`, async () => ((await readyz()).status === 503 ? readyz() : undefined), 15_000)
        assert.is(down.body[name], false, `${name} reported down: ${JSON.stringify(down.body)}`)
        assert.is(down.body.ready, false)
        for (const other of ['database', 'redis', 'storage'].filter((n) => n !== name)) assert.is(down.body[other], true, `${other} still up`)
        await proxies[name].restore()
        await until(`${name} ready again`, async () => (await readyz()).status === 200, 15_000)
      }
      await proxies.redis.cut()
      await until('redis not ready', async () => (await readyz()).status === 503, 15_000)
      const sent = Date.now()
      const exited = new Promise<number | null>((r) => child!.once('exit', (code) => r(code)))
      child.kill('SIGTERM')
      const code = await Promise.race([exited, new Promise<'hung'>((r) => setTimeout(() => r('hung'), 15_000))])
      const seconds = (Date.now() - sent) / 1000
      console.log(`  SIGTERM with Redis down: exited ${code} after ${seconds.toFixed(1)} s (grace 3 s)`)
      assert.not.equal(code, 'hung', `still running 15 s after SIGTERM:\n${log()}`)
      assert.ok(seconds <= 3 + 5, `exited within the grace and its 5 s to close (${seconds} s)`)
      assert.is(code, 0, `a clean stop, not the deadline's:\n${log()}`)
      assert.match(log(), /SIGTERM: /)
    } finally {
      await serving.catch(() => {})
      if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
      await Promise.all(Object.values(proxies).map((p) => p.close()))
      await s3.close()
    }
  }))

test.run()
