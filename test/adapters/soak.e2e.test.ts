import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import Database from 'better-sqlite3'
import { tempDir } from '../helpers/media.js'
import { pgrep, running, sleep } from '../helpers/processes.js'
import { startReceiver } from '../helpers/receiver.js'
import { runnable, cliArgs, api, createKey, freePort, root, serve, stop } from '../helpers/serve-child.js'

/**
 * A bounded soak of a real `reelforge serve` on loopback: SOAK_JOBS submissions from two live accounts and a
 * sandbox one, SOAK_CANCELS of them cancelled at random moments, 5 % runaway inputs (one synchronous step that
 * would spin for minutes: only the time budget ends them), SOAK_KILLS kill -9s of the server. Afterwards: every
 * job final, the queue empty, the ledger exact, no process of the server left, /metrics in agreement — and no
 * paid render ever waited while a sandbox one was started.
 */
const JOBS = Number(process.env.SOAK_JOBS ?? 120)
const KILLS = Number(process.env.SOAK_KILLS ?? 3)
const CANCELS = Number(process.env.SOAK_CANCELS ?? 0.3)

const soak = suite('soak: cancels, runaway inputs and kill -9s never lose a slot')
soak(`${JOBS} submissions, ${CANCELS * 100} % cancelled, 5 % runaway, ${KILLS} kill -9s: everything settles exactly`, async () => {
  const data = tempDir('reelforge-soak-')
  const accounts = [createKey(data, 1_000_000), createKey(data, 1_000_000)]
  const sandbox = spawnSync(process.execPath, cliArgs('keys', 'create', '--sandbox', '--data', data), { cwd: root, encoding: 'utf8' }).stdout.trim()
  const rx = await startReceiver()
  const runaway = runnable(new URL('../helpers/runaway-plugin.ts', import.meta.url).pathname)
  const env = {
    REELFORGE_ALLOW_NETWORKS: '127.0.0.0/8',
    REELFORGE_PLUGINS: runaway,
    REELFORGE_RENDER_TIME_MIN_S: '6',
    REELFORGE_RENDER_TIME_FACTOR: '0',
    REELFORGE_STOP_GRACE_S: '2',
  }
  const port = await freePort()
  const args = ['--concurrency', '2']
  let server = await serve(data, port, env, args)
  const seed = Number(process.env.SOAK_SEED ?? Date.now() % 100_000)
  let state = seed
  const random = () => (state = (state * 48271) % 2147483647) / 2147483647
  console.log(`  seed ${seed}`)
  const keyOf = new Map<string, string>()
  const cancels: Promise<unknown>[] = []
  const processes = new Set<number>()
  const watch = setInterval(() => {
    for (const pid of pgrep('render-child', server.pid)) processes.add(pid)
  }, 200)
  try {
    for (let i = 0; i < JOBS; i++) {
      if (KILLS && i > 0 && i % Math.floor(JOBS / (KILLS + 1)) === 0 && i < JOBS - 1) {
        await stop(server, 'SIGKILL')
        server = await serve(data, port, env, args)
      }
      const key = random() < 0.3 ? sandbox : accounts[i % 2]!
      const clip =
        random() < 0.05 ? { asset: { type: 'busy-loop' }, start: 0, length: 1 } : { asset: { type: 'title', text: `soak ${i}` }, start: 0, length: 0.5 }
      const edit = { timeline: { tracks: [{ clips: [clip] }] }, output: { format: 'mp4', size: { width: 160, height: 90 }, fps: 12 }, callback: `${rx.url}/cb` }
      const r = await api(port, key, 'POST', '/v1/render', edit)
      assert.is(r.status, 201, JSON.stringify(r.body))
      keyOf.set(r.body.jobId, key)
      if (random() < CANCELS) cancels.push(sleep(random() * 3000).then(() => api(port, key, 'DELETE', `/v1/render/${r.body.jobId}`).catch(() => undefined)))
      await sleep(random() * 100)
    }
    await Promise.all(cancels)
    // Everything settles by itself after the last restart.
    const db = new Database(join(data, 'reelforge.db'), { readonly: true })
    const all = <T>(sql: string) => db.prepare(sql).all() as T[]
    for (const until = Date.now() + 300_000; all(`SELECT id FROM jobs WHERE status IN ('QUEUED', 'PROCESSING')`).length; await sleep(500))
      assert.ok(Date.now() < until, `${all(`SELECT id FROM jobs WHERE status IN ('QUEUED', 'PROCESSING')`).length} jobs never ended`)
    const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text()
    for (const line of [
      'reelforge_queue_depth 0',
      'reelforge_renders_in_progress 0',
      'reelforge_renders_running_here 0',
      'reelforge_render_processes{state="busy"} 0',
    ])
      assert.ok(metrics.includes(line), `/metrics says ${line}`)
    await sleep(1000) // the last deliveries
    await stop(server)
    clearInterval(watch)
    assert.equal([...processes].filter(running), [], 'no render process outlived its server')

    const jobs = all<{ id: string; status: string; sandbox: number; created_at: string }>('SELECT id, status, sandbox, created_at FROM jobs')
    assert.is(jobs.length, JOBS)
    // The ledger: each completed live job charged once, nothing else charged, nothing left held, balances exact.
    const charges = all<{ job_id: string; n: number }>(`SELECT job_id, COUNT(*) AS n FROM wallet_ledger WHERE kind = 'charge' GROUP BY job_id`)
    assert.ok(
      charges.every((c) => c.n === 1),
      'no job charged twice',
    )
    const charged = new Set(charges.map((c) => c.job_id))
    for (const j of jobs) assert.is(charged.has(j.id), j.status === 'COMPLETE' && !j.sandbox, `job ${j.id} ${j.status} charged: ${charged.has(j.id)}`)
    const price = all<{ n: number }>(
      `SELECT COUNT(*) AS n FROM jobs j JOIN wallet_ledger l ON l.job_id = j.id AND l.kind = 'charge' WHERE l.amount <> j.credits_used`,
    )[0]!.n
    assert.is(price, 0, 'each charge is the credits_used its job reports')
    for (const w of all<{ account_id: string; balance: number; held: number }>('SELECT account_id, balance, held FROM wallets')) {
      const sum = (kind: string) =>
        all<{ s: number }>(`SELECT COALESCE(SUM(amount), 0) AS s FROM wallet_ledger WHERE account_id = '${w.account_id}' AND kind = '${kind}'`)[0]!.s
      // A settled job's hold is released whole and its price charged beside it: holds − releases is what is still held.
      assert.ok(Math.abs(sum('hold') - sum('release') - w.held) < 1e-9, 'holds − releases = held')
      assert.ok(Math.abs(w.balance - (sum('deposit') + sum('refund') - sum('charge'))) < 1e-9, 'the balance equals the ledger')
      assert.ok(Math.abs(w.held) < 1e-9, `nothing left on hold (${w.held})`)
    }
    db.close()
    // A sandbox render started while a paid one waited (queued before it) would break "a sandbox flood never delays a paid render".
    const started = new Map<string, number>()
    for (const r of rx.received)
      if (r.json?.event === 'render.processing' && !started.has(r.json.data.id)) started.set(r.json.data.id, Date.parse(r.json.timestamp))
    const queuedAt = new Map(jobs.map((j) => [j.id, Date.parse(j.created_at)]))
    for (const [s, at] of started) {
      if (keyOf.get(s) !== sandbox) continue
      const jumped = [...started].filter(([l, lAt]) => keyOf.get(l) !== sandbox && queuedAt.get(l)! < at - 50 && lAt > at + 50)
      assert.equal(jumped, [], `sandbox ${s} started before paid ${jumped.map(([l]) => l)} that were waiting`)
    }
    const by = (status: string) => jobs.filter((j) => j.status === status).length
    console.log(`  ${by('COMPLETE')} complete, ${by('FAILED')} failed, ${processes.size} render processes seen`)
  } finally {
    clearInterval(watch)
    await stop(server, 'SIGKILL')
    await rx.close()
  }
})
soak.run()
