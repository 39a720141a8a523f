import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { freshPostgres, PG_URL } from '../helpers/postgres.js'
import { testService, titleEdit } from '../helpers/service.js'
import { tcpProxy } from '../helpers/tcp-proxy.js'

// PostgreSQL out of reach for 10 s under a running service: a TCP proxy between the service and the shared test
// server is cut, so no other test file loses its database. Meanwhile every answer is a 503 that says to come
// back (never a 500), the log says so once, and the renders that were running are completed once it is back.

const OUTAGE_MS = 10_000
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

const test = suite('PostgreSQL down for 10 s')
test('every route answers 503 E_UNAVAILABLE with Retry-After, no address; renders in flight complete after, once', async () => {
  const started = Date.now()
  const real = new URL(PG_URL)
  const proxy = await tcpProxy({ host: real.hostname, port: Number(real.port) })
  // The lease outlasts the outage, so the running renders stay theirs (a shorter one hands them to the sweep).
  const svc = await testService({
    start: true,
    config: { databaseUrl: proxy.via(await freshPostgres()), leaseMs: 30_000, concurrency: 2, shotstack: true },
  })
  const lines: string[] = []
  const saved = { log: console.log, warn: console.warn, error: console.error }
  const capture = (...a: unknown[]) => void lines.push(a.map(String).join(' '))
  const restoreConsole = () => Object.assign(console, saved)
  try {
    const edit = { ...titleEdit(8), output: { format: 'mp4', size: { width: 320, height: 180 }, fps: 25 } }
    const ids: string[] = []
    for (let i = 0; i < 2; i++) ids.push((await svc.call('POST', '/v1/render', { body: edit })).body.jobId)
    // Cut while they draw frames: they finish in the outage and must wait to be settled (a render still being
    // planned waits for the database to hold its price).
    for (let until = Date.now() + 60_000; ; await sleep(50)) {
      const states = await Promise.all(ids.map((id) => svc.call('GET', `/v1/render/${id}`).then((r) => r.body)))
      if (states.some((s) => ['rendering', 'encoding', 'saving'].includes(s.stage) || s.status === 'COMPLETE')) break
      assert.ok(Date.now() < until, `never rendering: ${JSON.stringify(states)}`)
    }
    Object.assign(console, { log: capture, warn: capture, error: capture })
    await proxy.cut()
    const cutAt = Date.now()
    const asked: Record<string, number> = {}
    const askAll = async () => {
      const answers = [
        ['GET one', await svc.call('GET', `/v1/render/${ids[0]}`)],
        ['GET list', await svc.call('GET', '/v1/render')],
        ['POST', await svc.call('POST', '/v1/render', { body: edit, headers: { 'idempotency-key': 'during-the-outage' } })],
        ['unknown key', await svc.call('GET', '/v1/render', { key: 'rf_live_not_a_key' })],
        ['wallet', await svc.call('GET', '/v1/wallet')],
      ] as const
      for (const [what, r] of answers) {
        assert.is(r.status, 503, `${what}: ${JSON.stringify(r.body)}`)
        assert.is(r.headers.get('retry-after'), '5', what)
        assert.is(r.body.error.code, 'E_UNAVAILABLE', what)
        assert.match(r.body.error.message, /database is unavailable/)
        assert.not.match(JSON.stringify(r.body), /127\.0\.0\.1|localhost|\d{4,5}\b/, `${what}: no address`)
        asked[what] = (asked[what] ?? 0) + 1
      }
      // Shotstack's surface: the same 503 in its own envelope.
      const ss = await svc.app.request(`/edit/v1/render/${ids[0]}`, { headers: { 'x-api-key': svc.live } })
      assert.is(ss.status, 503)
      assert.is(ss.headers.get('retry-after'), '5')
      assert.equal(((await ss.json()) as { success: boolean }).success, false)
    }
    while (Date.now() - cutAt < OUTAGE_MS) await Promise.all([askAll(), sleep(1000)])
    await proxy.restore()
    const restoredAt = Date.now()
    const outageLines = [...lines]

    const done = await Promise.all(ids.map((id) => svc.waitFor(id, ['COMPLETE', 'FAILED'], svc.live, 60_000)))
    for (const job of done) assert.is(job.status, 'COMPLETE', job.error)
    for (const id of ids) assert.is((await svc.jobs.get(id))!.attempts, 1, `${id} rendered once`)
    assert.is((await svc.call('GET', '/v1/render')).status, 200, 'the API answers again')
    const ledger = (await svc.call('GET', '/v1/wallet/ledger?limit=200')).body.entries as { kind: string; job_id: string }[]
    for (const id of ids) assert.is(ledger.filter((e) => e.job_id === id && e.kind === 'charge').length, 1, `${id} charged once`)
    assert.is((await svc.call('GET', '/v1/wallet')).body.held, 0, 'no credits left held')
    const again = await svc.call('POST', '/v1/render', { body: edit, headers: { 'idempotency-key': 'during-the-outage' } })
    assert.is(again.status, 201, 'a key refused with 503 is free to use again')
    assert.is((await svc.call('GET', '/v1/render?limit=100')).body.renders.length, 3, 'none was taken while the database was down')

    // One line when it went and one when it came back, not one per failed call (requests, claims, heartbeats).
    restoreConsole()
    if (process.env.SHOW_LOG)
      console.log(
        lines.join('\n'),
        done.map((j) => [j.status, Date.parse(j.updated_at) - restoredAt, Date.parse(j.created_at) - cutAt]),
      )
    assert.is(lines.filter((l) => /\[postgres\] PostgreSQL unreachable/.test(l)).length, 1, lines.join('\n'))
    assert.is(lines.filter((l) => /\[postgres\] PostgreSQL reachable again/.test(l)).length, 1, lines.join('\n'))
    assert.ok(outageLines.length <= 2, `a quiet log during the outage:\n${outageLines.join('\n')}`)
    console.log(`  ${asked.POST} rounds of requests answered 503 during the outage; ${((Date.now() - started) / 1000).toFixed(1)} s in all`)
  } finally {
    restoreConsole()
    await svc.close()
    await proxy.close()
  }
})

test.run()
