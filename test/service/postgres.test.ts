import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createService } from '../../adapters/http/create-service.js'
import { openDatabase } from '../../service/db/db.js'
import { freshPostgres } from '../helpers/postgres.js'
import { testService, titleEdit, type TestService } from '../helpers/service.js'

// The /v1 suite runs against PostgreSQL as a whole (scripts/run-tests.mjs, REELFORGE_TEST_STORE=postgres).
// These are what only a shared server store can show: several service processes on one database.

const pg = suite('PostgreSQL store shared by several services')

/** A second service on the first one's database (another process of the same deployment). */
const sibling = (first: TestService) => createService(first.config)

pg('two services with in-process queues on one database: 6 renders, each claimed and rendered once, both working', async () => {
  const first = await testService({ store: 'postgres', config: { concurrency: 1 } })
  const second = await sibling(first)
  const claimedBy = new Map<string, string[]>()
  for (const [name, svc] of [
    ['first', first],
    ['second', second],
  ] as const)
    svc.events.on('render.processing', (job) => void claimedBy.set(job.id, [...(claimedBy.get(job.id) ?? []), name]))
  try {
    const ids: string[] = []
    for (let i = 0; i < 6; i++) ids.push((await first.call('POST', '/v1/render', { body: titleEdit(1) })).body.jobId)
    await Promise.all([first.start(), second.start()])
    for (const id of ids) assert.is((await first.waitFor(id, ['COMPLETE', 'FAILED'])).status, 'COMPLETE')
    for (const id of ids) {
      assert.is((await first.jobs.get(id))!.attempts, 1, `job ${id} claimed once`)
      assert.is(claimedBy.get(id)?.length, 1, `job ${id} rendered by one service`)
    }
    const workers = new Set([...claimedBy.values()].flat())
    assert.equal([...workers].sort(), ['first', 'second'], 'both services took jobs')
    const charges = await first.db.all<{ n: number }>(`SELECT COUNT(*) AS n FROM wallet_ledger WHERE kind = 'charge' GROUP BY job_id`)
    assert.equal(
      charges.map((c) => c.n),
      [1, 1, 1, 1, 1, 1],
      'each job charged once',
    )
  } finally {
    await second.close()
    await first.close()
  }
})

pg('concurrent spends through two services never overdraw: row locks serialise one account across connections', async () => {
  const first = await testService({ store: 'postgres', credits: 40 })
  const second = await sibling(first)
  try {
    const call = (svc: { app: TestService['app'] }) =>
      svc.app.request('/v1/render', {
        method: 'POST',
        headers: { authorization: `Bearer ${first.live}`, 'content-type': 'application/json' },
        body: JSON.stringify(titleEdit(1)),
      })
    const answers = await Promise.all(Array.from({ length: 120 }, (_, i) => call(i % 2 ? second : first)))
    const codes = answers.reduce<Record<number, number>>((acc, r) => ((acc[r.status] = (acc[r.status] ?? 0) + 1), acc), {})
    assert.equal(codes, { 201: 40, 402: 80 })
    assert.equal(await second.wallet.state(first.liveAccount), { balance: 40, held: 40, available: 0, low_balance_threshold: 100 })
    const bad = await first.db.get<{ n: number }>(
      'SELECT COUNT(*) AS n FROM wallet_ledger WHERE balance_after < 0 OR held_after < 0 OR held_after > balance_after',
    )
    assert.is(bad!.n, 0)
  } finally {
    await second.close()
    await first.close()
  }
})

pg('migrations: a second open of a migrated schema changes nothing; two opening at once apply it once', async () => {
  const url = await freshPostgres()
  const [a, b] = await Promise.all([openDatabase(url), openDatabase(url)])
  const version = async () => (await a.get<{ version: number }>('SELECT version FROM schema_version'))!.version
  const rows = await a.all('SELECT * FROM schema_version')
  assert.is(rows.length, 1)
  const v = await version()
  await (await openDatabase(url)).close()
  assert.is(await version(), v)
  await a.close()
  await b.close()
})

pg('a transaction whose failed statement was caught does not commit as if it had not: it throws', async () => {
  const db = await openDatabase(await freshPostgres())
  try {
    await db.run('CREATE TABLE kept (n INTEGER)')
    // PostgreSQL answers COMMIT after a failed statement with ROLLBACK, no error: the caller would see success
    // while its writes were gone.
    const lost = db.transaction(async () => {
      await db.run('INSERT INTO kept VALUES (1)')
      await db.get('SELECT * FROM no_such_table').catch(() => undefined)
      return 'done'
    })
    const error = await lost.then(
      () => undefined,
      (e: Error) => e,
    )
    assert.ok(error, 'the transaction rejects')
    assert.match(error!.message, /rolled back/)
    assert.equal(await db.all('SELECT n FROM kept'), [], 'and nothing of it was kept')
    // The same failure inside a savepoint rolls back alone: the rest commits.
    await db.transaction(async () => {
      await db.run('INSERT INTO kept VALUES (2)')
      await db.savepoint(() => db.get('SELECT * FROM no_such_table')).catch(() => undefined)
    })
    assert.equal(await db.all('SELECT n FROM kept'), [{ n: 2 }])
  } finally {
    await db.close()
  }
})

pg.run()
