import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import Database from 'better-sqlite3'
import { tempDir } from '../helpers/media.js'
import { startReceiver } from '../helpers/receiver.js'
import { api, createKey, freePort, serve, stop, waitStatus } from '../helpers/serve-child.js'

/**
 * The crash harness: a real `reelforge serve` is killed with SIGKILL at random moments while it renders,
 * works through a webhook retry schedule and generates an image batch, then restarted — LOOPS times. The
 * invariants afterwards: every job and image ends COMPLETE or FAILED, every delivery is still pending (with
 * its due time) or delivered, the wallet equals its ledger, and nothing is charged twice.
 */
const LOOPS = Number(process.env.FAULT_LOOPS ?? 4)
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

const edit = (seconds: number, i: number) => ({
  timeline: { background: '#102030', tracks: [{ clips: [{ asset: { type: 'title', text: `job ${i}` }, start: 0, length: seconds, effect: 'zoomIn' }] }] },
  output: { format: 'mp4', size: { width: 640, height: 360 }, fps: 25 },
})

const faults = suite('kill -9 at random points')
faults(`${LOOPS} SIGKILLs during renders, a webhook schedule and an image batch: nothing stuck, lost or charged twice`, async () => {
  const data = tempDir('reelforge-faults-')
  const key = createKey(data, 10_000)
  const rx = await startReceiver()
  rx.setStatus(500) // every delivery fails, so each sits in the retry schedule across the crashes
  const env = { REELFORGE_ALLOW_NETWORKS: '127.0.0.0/8' }
  const port = await freePort()
  let child = await serve(data, port, env)
  const seed = Number(process.env.FAULT_SEED ?? Date.now() % 100_000)
  let state = seed
  const random = () => (state = (state * 48271) % 2147483647) / 2147483647
  console.log(`  seed ${seed}`)

  const put = await api(port, key, 'PUT', '/v1/webhooks', {
    url: `${rx.url}/global`,
    events: ['render.complete', 'render.failed', 'ai.complete', 'ai.failed'],
    secret: 's'.repeat(24),
  })
  assert.is(put.status, 200)
  const jobs: string[] = []
  for (let i = 0; i < 4; i++) {
    const r = await api(port, key, 'POST', '/v1/render', { ...edit(8, i), callback: `${rx.url}/cb` })
    assert.is(r.status, 201)
    jobs.push(r.body.jobId)
  }
  const batch = await api(port, key, 'POST', '/v1/ai/image/batch', {
    requests: [0, 1, 2, 3, 4].map((i) => ({ prompt: `picture ${i}`, width: 1024, height: 1024 })),
  })
  assert.is(batch.status, 202)

  for (let loop = 0; loop < LOOPS; loop++) {
    await sleep(200 + random() * 1800)
    await stop(child, 'SIGKILL')
    child = await serve(data, port, env)
  }

  // After the last restart everything must settle by itself.
  for (const id of jobs) await waitStatus(port, key, id, ['COMPLETE', 'FAILED'], 180_000)
  for (let until = Date.now() + 60_000; ; await sleep(200)) {
    const b = await api(port, key, 'GET', `/v1/ai/image/batch/${batch.body.batchId}`)
    if (b.body.status === 'complete') break
    assert.ok(Date.now() < until, `batch still ${JSON.stringify(b.body.items.map((i: { status: string }) => i.status))}`)
  }
  await sleep(500) // let the last outbox writes land
  await stop(child)
  await rx.close()

  const db = new Database(join(data, 'reelforge.db'), { readonly: true })
  const all = <T>(sql: string, ...args: unknown[]) => db.prepare(sql).all(...args) as T[]
  const rows = all<{ id: string; status: string; error: string | null; attempts: number }>('SELECT id, status, error, attempts FROM jobs')
  assert.is(rows.length, jobs.length, 'every job persisted once')
  for (const j of rows) {
    assert.ok(j.status === 'COMPLETE' || j.status === 'FAILED', `${j.id} ${j.status}`)
    if (j.status === 'FAILED') assert.match(j.error ?? '', /interrupted|attempt/i, 'a crash-failed job says why')
  }
  console.log(`  jobs: ${rows.map((j) => `${j.status}(${j.attempts})`).join(' ')}`)

  // Charged at most once per job or image; completed ones exactly once; nothing left held.
  const charges = all<{ job_id: string; n: number }>(`SELECT job_id, COUNT(*) AS n FROM wallet_ledger WHERE kind = 'charge' GROUP BY job_id`)
  assert.ok(
    charges.every((c) => c.n === 1),
    'the unique (job, kind) index holds',
  )
  const charged = new Set(charges.map((c) => c.job_id))
  for (const j of rows) assert.is(charged.has(j.id), j.status === 'COMPLETE', `job ${j.id} ${j.status} charged: ${charged.has(j.id)}`)
  const images = all<{ id: string; status: string }>('SELECT id, status FROM images')
  assert.is(images.length, 5)
  for (const i of images) {
    assert.ok(i.status === 'complete' || i.status === 'failed', `image ${i.id} ${i.status}`)
    assert.is(charged.has(i.id), i.status === 'complete', `image ${i.id} ${i.status} charged: ${charged.has(i.id)}`)
  }
  const ledger = all<{ kind: string; amount: number }>('SELECT kind, amount FROM wallet_ledger')
  const sum = (k: string) => ledger.filter((e) => e.kind === k).reduce((s, e) => s + e.amount, 0)
  const [wallet] = all<{ balance: number; held: number }>('SELECT balance, held FROM wallets')
  assert.ok(Math.abs(wallet!.balance - (sum('deposit') + sum('refund') - sum('charge'))) < 1e-9, `balance ${wallet!.balance} equals the ledger`)
  assert.ok(Math.abs(wallet!.held - (sum('hold') - sum('release'))) < 1e-9, 'held equals the ledger')
  assert.ok(Math.abs(wallet!.held) < 1e-9, `nothing is left on hold (${wallet!.held})`)

  // Every event that happened has its deliveries — none lost — each pending with a due time, or delivered.
  const deliveries = all<{ event: string; target: string; body: string; status: string; next_attempt_at: number | null }>(
    'SELECT event, target, body, status, next_attempt_at FROM webhook_deliveries',
  )
  for (const d of deliveries) {
    assert.ok(d.status === 'pending' || d.status === 'delivered', `delivery ${d.event} ${d.status}`)
    if (d.status === 'pending') assert.ok(d.next_attempt_at !== null, 'a pending delivery keeps its due time')
  }
  for (const j of rows) {
    const event = j.status === 'COMPLETE' ? 'render.complete' : 'render.failed'
    for (const target of ['callback', 'global']) {
      const n = deliveries.filter((d) => d.event === event && d.target === target && JSON.parse(d.body).data.id === j.id).length
      assert.is(n, 1, `${event} of ${j.id} to the ${target}: exactly one delivery`)
    }
  }
  for (const i of images)
    assert.is(deliveries.filter((d) => d.event === `ai.${i.status}` && JSON.parse(d.body).data.id === i.id).length, 1, `ai.${i.status} of ${i.id}`)
  db.close()
})
faults.run()
