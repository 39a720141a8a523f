import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { completeJob } from '../../../service/jobs/settle.js'
import { lavfi, tempDir } from '../../helpers/media.js'
import { testService, type TestService } from '../../helpers/service.js'

// Smart timing (`start: "auto"`, `length: "auto" | "end"`, `alias://`) is resolved only when a render is planned,
// so the hold taken at submission is a guess. The service must re-hold the real price before the first frame:
// a render is never delivered for less than it costs, and one the wallet cannot pay is never rendered.

const dir = tempDir('reelforge-smart-billing-')
const media = { short: '', twoSeconds: '' }
/** Preview tier (≤ 512×288): 1 credit per started minute, so 61–63 s cost 2 credits where the estimate held 1. */
const output = { format: 'mp4', size: { width: 64, height: 36 }, fps: 12 }
const title = { type: 'title', text: 'x' }

/** Each edit lasts 61–63 s, decided by smart timing; the submit-time estimate sees under a minute. */
const EDITS: [string, () => object][] = [
  // Three clips one after another: 3 × 21 s.
  [
    'start: "auto"',
    () => ({ timeline: { tracks: [{ clips: [1, 2, 3].map(() => ({ asset: { type: 'video', src: media.short }, start: 'auto', length: 21 })) }] }, output }),
  ],
  // A probed length: a 2 s source slowed to 0.0325× lasts 61.5 s; a title runs to the end.
  [
    'length: "auto" and "end"',
    () => ({
      timeline: {
        tracks: [
          { clips: [{ asset: title, start: 0, length: 'end' }] },
          { clips: [{ asset: { type: 'video', src: media.twoSeconds, speed: 0.0325 }, start: 0, length: 'auto' }] },
        ],
      },
      output,
    }),
  ],
  // A clip as long as another one: 40 s + the 23 s of "intro".
  [
    'alias://',
    () => ({
      timeline: {
        tracks: [
          { clips: [{ alias: 'intro', asset: { type: 'video', src: media.short }, start: 0, length: 23 }] },
          { clips: [{ asset: title, start: 40, length: 'alias://intro' }] },
        ],
      },
      output,
    }),
  ],
]

/** A live key on a new account holding exactly `credits`. */
async function account(svc: TestService, credits: number) {
  const { key, record } = await svc.keys.create()
  await svc.wallet.deposit(record.accountId, credits, 'test funds')
  return { key, accountId: record.accountId }
}
const ledger = async (svc: TestService, key: string) =>
  (await svc.call('GET', '/v1/wallet/ledger', { key })).body.entries as { kind: string; amount: number; note: string | null }[]

const ctx = {} as { svc: TestService }
const billing = suite('smart-timed renders are charged their real price, resolved before the first frame', ctx)
billing.before(async () => {
  media.short = await lavfi('testsrc2=size=64x36:rate=12:duration=1', join(dir, 'short.mp4'), ['-c:v', 'libx264', '-pix_fmt', 'yuv420p'])
  media.twoSeconds = await lavfi('testsrc2=size=64x36:rate=12:duration=2', join(dir, 'two.mp4'), ['-c:v', 'libx264', '-pix_fmt', 'yuv420p'])
  // The service's default: renders in a child process (the planned duration crosses IPC).
  ctx.svc = await testService({ start: true, credits: 0, config: { isolateRenders: true, files: { allow: [dir] } } })
})
billing.after(() => ctx.svc?.close())

for (const [timing, edit] of EDITS) {
  billing(`${timing}: a wallet holding exactly the price → COMPLETE, charged the full price`, async () => {
    const { svc } = ctx
    const { key } = await account(svc, 2)
    const submitted = await svc.call('POST', '/v1/render', { key, body: edit() })
    assert.is(submitted.status, 201, JSON.stringify(submitted.body))
    // What the wallet holds right now depends on whether the worker has planned it yet: the ledger says it below.
    const done = await svc.waitFor(submitted.body.jobId, ['COMPLETE', 'FAILED'], key, 120_000)
    assert.is(done.status, 'COMPLETE', done.error)
    assert.ok(done.duration > 60 && done.duration < 64, `${done.duration} s`)
    assert.is(done.credits_used, 2)
    assert.equal((await svc.call('GET', '/v1/wallet', { key })).body, { balance: 0, held: 0, available: 0, low_balance_threshold: 100 })
    const entries = await ledger(svc, key)
    assert.equal(
      entries.filter((e) => e.kind === 'charge').map((e) => [e.amount, e.note]),
      [[2, null]],
      'charged in full, never "short by"',
    )
    assert.equal(
      entries.map((e) => e.kind),
      ['charge', 'release', 'hold', 'hold', 'deposit'],
      'the difference was held once the render was planned',
    )
    assert.equal(
      entries.filter((e) => e.kind === 'hold').map((e) => e.amount),
      [1, 1],
      'held at submission: the estimate, under a minute (1); once planned: the difference (1)',
    )
  })

  billing(`${timing}: one credit short → FAILED with E_INSUFFICIENT_CREDITS before rendering; hold released, nothing charged`, async () => {
    const { svc } = ctx
    const { key } = await account(svc, 1)
    const submitted = await svc.call('POST', '/v1/render', { key, body: edit() })
    assert.is(submitted.status, 201, 'the estimate fits the wallet')
    const failed = await svc.waitFor(submitted.body.jobId, ['COMPLETE', 'FAILED'], key, 120_000)
    assert.is(failed.status, 'FAILED')
    assert.match(failed.error, /E_INSUFFICIENT_CREDITS/)
    assert.match(failed.error, /costs 2 credits/)
    assert.is(failed.credits_used, 0)
    assert.is(failed.progress, 0, 'the render never reached its rendering stage')
    assert.not.ok(existsSync(join(svc.config.dataDir, 'files', submitted.body.jobId)), 'nothing was stored')
    assert.equal((await svc.call('GET', '/v1/wallet', { key })).body, { balance: 1, held: 0, available: 1, low_balance_threshold: 100 })
    assert.equal(
      (await ledger(svc, key)).map((e) => e.kind),
      ['release', 'hold', 'deposit'],
      'no charge, no second hold',
    )
  })
}

billing('in the server process too (isolateRenders off): one credit short fails before rendering', async () => {
  const svc = await testService({ start: true, credits: 0, config: { isolateRenders: false, files: { allow: [dir] } } })
  try {
    const { key } = await account(svc, 1)
    const submitted = await svc.call('POST', '/v1/render', { key, body: EDITS[0]![1]() })
    const failed = await svc.waitFor(submitted.body.jobId, ['COMPLETE', 'FAILED'], key, 120_000)
    assert.is(failed.status, 'FAILED')
    assert.match(failed.error, /E_INSUFFICIENT_CREDITS/)
    assert.is(failed.progress, 0)
    assert.equal((await svc.call('GET', '/v1/wallet', { key })).body, { balance: 1, held: 0, available: 1, low_balance_threshold: 100 })
  } finally {
    await svc.close()
  }
})

billing('settling more than the hold and the balance cover is refused, never charged short', async () => {
  const { svc } = ctx
  const { accountId } = await account(svc, 1)
  const jobId = crypto.randomUUID()
  await svc.wallet.hold(accountId, jobId, 1)
  const refused = await svc.wallet.settleRender(jobId, { seconds: 61, width: 64, height: 36 }).then(
    (charged) => `charged ${charged}`,
    (e: { code?: string }) => e.code,
  )
  assert.is(refused, 'E_INSUFFICIENT_CREDITS', '2 credits due, 1 held, none available')
  const charges = await svc.db.all(`SELECT amount FROM wallet_ledger WHERE job_id = ? AND kind = 'charge'`, [jobId])
  assert.equal(charges, [], 'no charge was written')
  await svc.wallet.release(jobId)
  assert.equal(await svc.wallet.state(accountId), { balance: 1, held: 0, available: 1, low_balance_threshold: 100 })
})

billing('a finished render the wallet cannot pay in full is FAILED, not COMPLETE short', async () => {
  // The service's own settlement, on a job whose hold (1) is short of what it rendered (61 s: 2 credits) and
  // whose account has nothing more: as if the hold had not been topped up when it was planned.
  const svc = await testService({ credits: 0, config: { files: { allow: [dir] } } })
  try {
    const { key, accountId } = await account(svc, 1)
    const submitted = await svc.call('POST', '/v1/render', { key, body: { ...EDITS[0]![1](), output: { ...output, range: { start: 0, length: 1 } } } })
    const { jobId } = submitted.body
    assert.ok(await svc.jobs.start(jobId, 'test-worker'), JSON.stringify(submitted.body))
    const outcome = { keys: { url: `${jobId}/${jobId}.mp4` }, duration: 61, width: 64, height: 36, frames: 732, renderMs: 1000, warnings: [] }
    const completed = await completeJob({ config: svc.config, jobs: svc.jobs, billing: svc.wallet, events: svc.events }, jobId, 'test-worker', outcome)
    assert.is(completed, false)
    const job = (await svc.call('GET', `/v1/render/${jobId}`, { key })).body
    assert.is(job.status, 'FAILED')
    assert.match(job.error, /^E_INSUFFICIENT_CREDITS: this costs 2 credits; held for it: 1, available: 0/)
    assert.is(job.url, null, 'not delivered')
    assert.equal(await svc.wallet.state(accountId), { balance: 1, held: 0, available: 1, low_balance_threshold: 100 })
    assert.equal(
      (await ledger(svc, key)).map((e) => e.kind),
      ['release', 'hold', 'deposit'],
      'no charge',
    )
  } finally {
    await svc.close()
  }
})

billing('the duration limit applies to the resolved timeline: 63 s of smart timing past a 60 s limit fails before the first frame', async () => {
  const svc = await testService({ start: true, config: { isolateRenders: true, files: { allow: [dir] }, limits: { durationLive: 60 } as never } })
  try {
    const submitted = await svc.call('POST', '/v1/render', { body: EDITS[0]![1]() })
    assert.is(submitted.status, 201, 'the estimate at submission sees under a minute')
    const done = await svc.waitFor(submitted.body.jobId, ['COMPLETE', 'FAILED'])
    assert.is(done.status, 'FAILED')
    assert.match(done.error, /E_LIMIT_EXCEEDED: timeline: the timeline lasts 63\.0 s; the limit for live keys is 60 s/)
    assert.is(done.progress, 0, 'nothing rendered')
  } finally {
    await svc.close()
  }
})

billing.run()
