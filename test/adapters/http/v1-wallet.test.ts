import { spawn } from 'node:child_process'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createService } from '../../../adapters/http/create-service.js'
import { startServer } from '../../../adapters/http/serve.js'
import { dbTarget, defaultConfig } from '../../../service/config.js'
import { openDatabase, type Db } from '../../../service/db/db.js'
import { DEFAULT_PRICING, renderPrice } from '../../../service/billing/pricing.js'
import { tempDir } from '../../helpers/media.js'
import { freshPostgres, TEST_STORE } from '../../helpers/postgres.js'
import { openaiProvider } from '../../../index.js'
import { fakeOpenAI } from '../../helpers/fake-vendors.js'
import { titleEdit, testService } from '../../helpers/service.js'
import { scriptArgs } from '../../helpers/serve-child.js'

/** The ledger's own sums, which the wallet totals must equal. */
async function ledgerTotals(db: Db, account: string) {
  const sum = async (kinds: string) =>
    (await db.get<{ n: number }>(`SELECT COALESCE(SUM(amount), 0) AS n FROM wallet_ledger WHERE account_id = ? AND kind IN (${kinds})`, [account]))!.n
  return { balance: (await sum("'deposit','refund'")) - (await sum("'charge'")), held: (await sum("'hold'")) - (await sum("'release'")) }
}
const countJobs = async (db: Db) => (await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM jobs'))!.n

const wallet = suite('wallet')
wallet('GET /v1/wallet and the pricing table', async () => {
  const svc = await testService({ credits: 250 })
  assert.equal((await svc.call('GET', '/v1/wallet')).body, { balance: 250, held: 0, available: 250, low_balance_threshold: 100 })
  assert.is(renderPrice(DEFAULT_PRICING, 61, { width: 3840, height: 2160 }), 40, '4k: 20 credits per started minute')
  assert.is(renderPrice(DEFAULT_PRICING, 10, { width: 1280, height: 720 }), 3)
  assert.equal(DEFAULT_PRICING.images, { flux: 5, 'stable-diffusion': 4, 'dall-e-3': 6 })
  await svc.close()
})
wallet('deposits need an admin key and emit wallet.deposit', async () => {
  const svc = await testService({ credits: 0 })
  await svc.call('PUT', '/v1/webhooks', { body: { url: 'http://127.0.0.1:1/hook', events: ['wallet.deposit'], secret: 'x'.repeat(16) } })
  const denied = await svc.call('POST', '/v1/wallet/deposits', { body: { amount: 100 } })
  assert.is(denied.status, 403)
  const admin = (await svc.keys.create({ admin: true, accountId: svc.liveAccount })).key
  const ok = await svc.call('POST', '/v1/wallet/deposits', { key: admin, body: { amount: 100, note: 'top-up' } })
  assert.is(ok.status, 201)
  assert.is(ok.body.balance, 100)
  const deliveries = await svc.outbox.list(svc.liveAccount)
  assert.equal(
    deliveries.map((d) => [d.event, (d.payload as any).data]),
    [['wallet.deposit', { amount: 100, balance: 100 }]],
  )
  assert.is((await svc.call('POST', '/v1/wallet/deposits', { key: admin, body: { amount: -5 } })).status, 400)
  await svc.close()
})
wallet('a render holds its estimate; completion charges the actual cost and releases the rest; failure releases all', async () => {
  const svc = await testService({ start: true, credits: 10 })
  // 90 s at hd is 2 started minutes × 3 = 6 held; a 0.5 s range is rendered, charged 1 minute × 3.
  const { body } = await svc.call('POST', '/v1/render', { body: titleEdit(90, { size: { width: 1280, height: 720 }, range: { start: 0, length: 0.5 } }) })
  assert.equal((await svc.call('GET', '/v1/wallet')).body.held, 3, 'the hold knows the range: 0.5 s → 1 minute')
  const done = await svc.waitFor(body.jobId, ['COMPLETE', 'FAILED'])
  assert.is(done.credits_used, 3)
  assert.equal((await svc.call('GET', '/v1/wallet')).body, { balance: 7, held: 0, available: 7, low_balance_threshold: 100 })
  const bad = titleEdit(1) as any
  bad.timeline.tracks.push({ clips: [{ asset: { type: 'image', src: '/v1/files/00000000-0000-4000-8000-000000000000/missing.png' }, start: 0, length: 1 }] })
  const failed = await svc.call('POST', '/v1/render', { body: bad })
  const f = await svc.waitFor(failed.body.jobId, ['FAILED'])
  assert.is(f.credits_used, 0)
  assert.equal((await svc.call('GET', '/v1/wallet')).body, { balance: 7, held: 0, available: 7, low_balance_threshold: 100 })
  const kinds = (await svc.call('GET', '/v1/wallet/ledger')).body.entries.map((e: { kind: string }) => e.kind)
  assert.equal(kinds, ['release', 'hold', 'charge', 'release', 'hold', 'deposit'])
  assert.equal(await ledgerTotals(svc.db, svc.liveAccount), { balance: 7, held: 0 })
  await svc.close()
})
wallet('not enough credits: 402 E_INSUFFICIENT_CREDITS and nothing queued; sandbox keys cost nothing', async () => {
  const svc = await testService({ credits: 2 })
  const before = await countJobs(svc.db)
  const r = await svc.call('POST', '/v1/render', { body: titleEdit(1, { resolution: 'hd', size: undefined }) })
  assert.is(r.status, 402)
  assert.is(r.body.error.code, 'E_INSUFFICIENT_CREDITS')
  assert.match(r.body.error.message, /needs 3 credits; 2 are available/)
  assert.is(await countJobs(svc.db), before)
  assert.is((await svc.call('POST', '/v1/render', { key: svc.sandbox, body: titleEdit(1, { resolution: 'hd', size: undefined }) })).status, 201)
  await svc.close()
})
wallet('1,000 concurrent spends leave the exact balance, never a negative one', async () => {
  const svc = await testService({ credits: 500 })
  const results = await Promise.all(Array.from({ length: 1000 }, () => svc.call('POST', '/v1/render', { body: titleEdit(1) })))
  const codes = results.reduce<Record<number, number>>((acc, r) => ((acc[r.status] = (acc[r.status] ?? 0) + 1), acc), {})
  assert.equal(codes, { 201: 500, 402: 500 })
  const w = (await svc.call('GET', '/v1/wallet')).body
  assert.equal(w, { balance: 500, held: 500, available: 0, low_balance_threshold: 100 })
  assert.equal(await ledgerTotals(svc.db, svc.liveAccount), { balance: 500, held: 500 })
  const negative = await svc.db.get<{ n: number }>(
    'SELECT COUNT(*) AS n FROM wallet_ledger WHERE balance_after < 0 OR held_after < 0 OR held_after > balance_after',
  )
  assert.is(negative!.n, 0)
  await svc.close()
})
wallet('Idempotency-Key: a retried POST returns the first answer and spends once; a different body is 422', async () => {
  const svc = await testService({ credits: 100 })
  const headers = { 'idempotency-key': 'order-42' }
  const a = await svc.call('POST', '/v1/render', { body: titleEdit(1), headers })
  const b = await svc.call('POST', '/v1/render', { body: titleEdit(1), headers })
  assert.is(a.status, 201)
  assert.equal(b.body, a.body)
  assert.is(b.headers.get('idempotent-replayed'), 'true')
  assert.is((await svc.call('GET', '/v1/wallet')).body.held, 1, 'held once')
  const c = await svc.call('POST', '/v1/render', { body: titleEdit(2), headers })
  assert.is(c.status, 422)
  assert.is(c.body.error.code, 'E_IDEMPOTENCY_MISMATCH')
  const admin = (await svc.keys.create({ admin: true, accountId: svc.liveAccount })).key
  for (let i = 0; i < 3; i++) await svc.call('POST', '/v1/wallet/deposits', { key: admin, body: { amount: 50 }, headers: { 'idempotency-key': 'dep-1' } })
  assert.is((await svc.call('GET', '/v1/wallet')).body.balance, 150, 'deposited once')
  await svc.close()
})
wallet('wallet.low_balance fires once per crossing below the threshold', async () => {
  const svc = await testService({ credits: 0 })
  const seen: number[] = []
  svc.wallet.listen({ deposit: async () => {}, lowBalance: async (_a, balance) => seen.push(balance) })
  const id = () => crypto.randomUUID()
  await svc.wallet.deposit(svc.liveAccount, 103)
  for (let i = 0; i < 6; i++) await svc.wallet.charge(svc.liveAccount, id(), 1) // 102 … 97: crosses once at 99
  await new Promise((r) => setTimeout(r, 10))
  assert.equal(seen, [99])
  await svc.wallet.deposit(svc.liveAccount, 50) // back above: armed again
  for (let i = 0; i < 60; i++) await svc.wallet.charge(svc.liveAccount, id(), 1)
  await new Promise((r) => setTimeout(r, 10))
  assert.equal(seen, [99, 99])
  await svc.close()
})
wallet('wallet.low_balance fires once per crossing, whichever side moved: a raised threshold and an image charge too', async () => {
  // A paid image model (OpenAI's wire protocol, served locally): the sandbox generator is free.
  const openai = await fakeOpenAI('#ff0000')
  const svc = await testService({ credits: 0, overrides: { providers: [openaiProvider({ apiKey: 'sk-test', baseUrl: openai.url })] } })
  const admin = (await svc.keys.create({ admin: true })).key
  const lows = async () =>
    (
      (await svc.call('GET', '/v1/webhooks/deliveries?event=wallet.low_balance')).body.deliveries as {
        payload: { data: { balance: number; threshold: number } }
      }[]
    ).map((d) => d.payload.data)
  assert.is(
    (await svc.call('PUT', '/v1/webhooks', { body: { url: 'https://example.com/hook', events: ['wallet.low_balance'], secret: 's'.repeat(24) } })).status,
    200,
  )
  await svc.call('POST', '/v1/wallet/deposits', { key: admin, body: { account_id: svc.liveAccount, amount: 150 } })
  assert.equal(await lows(), [], 'above the threshold: nothing')
  await svc.call('PUT', '/v1/wallet/threshold', { body: { low_balance_threshold: 200 } }) // the threshold moved above the balance
  assert.equal(await lows(), [{ balance: 150, threshold: 200 }])
  await svc.call('PUT', '/v1/wallet/threshold', { body: { low_balance_threshold: 300 } }) // still below: no new crossing
  assert.is((await lows()).length, 1)
  await svc.call('PUT', '/v1/wallet/threshold', { body: { low_balance_threshold: 148 } }) // back under the balance: armed
  assert.is((await lows()).length, 1)
  const image = await svc.call('POST', '/v1/ai/image', { body: { prompt: 'a kite', model: 'dall-e-3' } }) // 6 credits: 150 → 144
  assert.is(image.status, 200, JSON.stringify(image.body))
  assert.is(image.body.credits_used, 6)
  assert.equal((await lows())[0], { balance: 144, threshold: 148 }, 'an image charge crosses too')
  assert.is((await lows()).length, 2)
  await svc.close()
  await openai.close()
})
wallet.run()

const crash = suite('crash between render completion and charge')
crash('the job renders again after the restart and is charged exactly once', async () => {
  const data = tempDir('reelforge-crash-charge-')
  // On the suite's store: the child finds a PostgreSQL store through REELFORGE_DATABASE_URL.
  const databaseUrl = TEST_STORE === 'postgres' ? await freshPostgres() : undefined
  const setup = await createService(defaultConfig({ dataDir: data, databaseUrl }))
  const { key, record } = await setup.keys.create()
  await setup.wallet.deposit(record.accountId, 100)
  await setup.close()
  const port = 4100 + (process.pid % 800)
  const root = new URL('../../..', import.meta.url).pathname
  const env = { ...process.env, ...(databaseUrl ? { REELFORGE_DATABASE_URL: databaseUrl } : {}) }
  const child = spawn(process.execPath, [...scriptArgs('test/helpers/crash-on-settle.ts'), data, String(port)], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  await new Promise<void>((r) => child.stdout!.on('data', (d) => /listening/.test(String(d)) && r()))
  const res = await fetch(`http://127.0.0.1:${port}/v1/render`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(titleEdit(1)),
  })
  const { jobId } = (await res.json()) as { jobId: string }
  const exit = await new Promise<string | null>((r) => child.once('exit', (_c, signal) => r(signal)))
  assert.is(exit, 'SIGKILL', 'died inside the settlement')
  const db = await openDatabase(dbTarget(defaultConfig({ dataDir: data, databaseUrl })))
  assert.is(
    (await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM wallet_ledger WHERE job_id = ? AND kind = 'charge'`, [jobId]))!.n,
    0,
    'the charge rolled back with the crash',
  )
  await db.close()
  const server = await startServer(defaultConfig({ dataDir: data, databaseUrl, port: 0, leaseMs: 1500 }))
  try {
    for (let i = 0; i < 400 && (await server.service.jobs.get(jobId))!.status !== 'COMPLETE'; i++) await new Promise((r) => setTimeout(r, 50))
    const job = (await server.service.jobs.get(jobId))!
    assert.is(job.status, 'COMPLETE')
    assert.is(job.attempts, 2)
    const charges = await server.service.db.all<{ amount: number }>(`SELECT amount FROM wallet_ledger WHERE job_id = ? AND kind = 'charge'`, [jobId])
    assert.equal(charges, [{ amount: 1 }])
    assert.equal(await server.service.wallet.state(record.accountId), { balance: 99, held: 0, available: 99, low_balance_threshold: 100 })
  } finally {
    await server.close()
  }
})
crash.run()
