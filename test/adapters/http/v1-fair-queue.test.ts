import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { testService, titleEdit, type TestService } from '../../helpers/service.js'

// The embedded queue's claim is fair between accounts: live work before sandbox work, then round-robin over
// accounts, never more than an account's cap at once. Jobs are submitted over HTTP; the claims are the store's
// own (the loops of the in-process queue make exactly these calls), on SQLite or PostgreSQL.

const OWNER = 'fairness-test'
const LEASE = 60_000

async function submit(svc: TestService, key: string, n: number): Promise<string[]> {
  const ids: string[] = []
  for (let i = 0; i < n; i++) {
    const res = await svc.call('POST', '/v1/render', { key, body: titleEdit(1) })
    assert.is(res.status, 201, JSON.stringify(res.body))
    ids.push(res.body.jobId)
  }
  return ids
}
async function liveAccount(svc: TestService): Promise<string> {
  const { key, record } = await svc.keys.create()
  await svc.wallet.deposit(record.accountId, 1000)
  return key
}
const claim = async (svc: TestService, accountCap?: number) => (await svc.jobs.claim(OWNER, LEASE, { accountCap }))?.id
const finish = (svc: TestService, id: string) => svc.jobs.fail(id, OWNER, 'done for the test')

const claims = suite('JobStore.claim: fair between accounts')
claims('a sandbox flood never goes ahead of a paid job, from another account or the same one', async () => {
  const svc = await testService()
  await submit(svc, svc.sandbox, 6)
  const [paid] = await submit(svc, svc.live, 1)
  assert.is(await claim(svc), paid, 'the live job is claimed first')
  // A sandbox key of the paying account itself is no better placed.
  const ownSandbox = (await svc.keys.create({ sandbox: true, accountId: svc.liveAccount })).key
  await submit(svc, ownSandbox, 2)
  const [paid2] = await submit(svc, svc.live, 1)
  await finish(svc, paid!)
  assert.is(await claim(svc), paid2)
  await svc.close()
})
claims("round-robin: A submits 4, then B submits 1; with one job at a time B's is claimed second", async () => {
  const svc = await testService()
  const b = await liveAccount(svc)
  const a = await submit(svc, svc.live, 4)
  const [b1] = await submit(svc, b, 1)
  const order: string[] = []
  for (let id = await claim(svc); id; id = await claim(svc)) order.push(id), await finish(svc, id)
  assert.equal(order, [a[0], b1, a[1], a[2], a[3]])
  await svc.close()
})
claims('round-robin over three accounts that all have work: turns alternate instead of draining the oldest', async () => {
  const svc = await testService()
  const [b, c] = [await liveAccount(svc), await liveAccount(svc)]
  const a = await submit(svc, svc.live, 3)
  const bs = await submit(svc, b, 2)
  const cs = await submit(svc, c, 2)
  const order: string[] = []
  for (let id = await claim(svc); id; id = await claim(svc)) order.push(id), await finish(svc, id)
  assert.equal(order, [a[0], bs[0], cs[0], a[1], bs[1], cs[1], a[2]])
  await svc.close()
})
claims("per-account cap: an account at its cap waits while another account's job is claimed", async () => {
  const svc = await testService()
  const b = await liveAccount(svc)
  const a = await submit(svc, svc.live, 2)
  assert.is(await claim(svc, 1), a[0])
  assert.is(await claim(svc, 1), undefined, 'A is at its cap of 1: its second job waits')
  const [b1] = await submit(svc, b, 1)
  assert.is(await claim(svc, 1), b1, 'B is served meanwhile')
  await finish(svc, a[0]!)
  assert.is(await claim(svc, 1), a[1], "A's second job once its first ended")
  await svc.close()
})
claims.run()

const queue = suite('the in-process queue: fair under load')
queue('concurrency 1: a paid job submitted behind 6 sandbox jobs runs next', async () => {
  const svc = await testService({ start: true, config: { concurrency: 1 } })
  const flood = await submit(svc, svc.sandbox, 6)
  const [paid] = await submit(svc, svc.live, 1)
  await svc.waitFor(paid!, ['COMPLETE'], svc.live, 120_000)
  const done = []
  for (const id of flood) done.push((await svc.call('GET', `/v1/render/${id}`, { key: svc.sandbox })).body.status)
  assert.ok(done.filter((s) => s === 'COMPLETE').length <= 1, `sandbox jobs finished before the paid one: ${done}`)
  await svc.close()
})
queue("concurrency 2, cap 1: an account's second job waits while another account's job runs", async () => {
  const svc = await testService({ start: true, config: { concurrency: 2, accountConcurrency: 1 } })
  const b = await liveAccount(svc)
  const a = await submit(svc, svc.live, 2)
  const [b1] = await submit(svc, b, 1)
  const status = async (id: string, key: string) => (await svc.call('GET', `/v1/render/${id}`, { key })).body.status as string
  let bothOfA = false
  let bWithA = false
  for (const until = Date.now() + 120_000; Date.now() < until; await new Promise((r) => setTimeout(r, 20))) {
    const [a0, a1, b0] = [await status(a[0]!, svc.live), await status(a[1]!, svc.live), await status(b1!, b)]
    if (a0 === 'PROCESSING' && a1 === 'PROCESSING') bothOfA = true
    if (b0 === 'PROCESSING' && (a0 === 'PROCESSING' || a1 === 'PROCESSING')) bWithA = true
    if ([a0, a1, b0].every((s) => s === 'COMPLETE')) break
  }
  assert.not.ok(bothOfA, "never two of A's renders at once")
  assert.ok(bWithA, 'B rendered alongside A')
  for (const [id, key] of [
    [a[0]!, svc.live],
    [a[1]!, svc.live],
    [b1!, b],
  ])
    assert.is(await status(id!, key!), 'COMPLETE')
  await svc.close()
})
queue.run()
