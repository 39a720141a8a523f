import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { openDatabase } from '../../service/db/db.js'
import { freshPostgres } from '../helpers/postgres.js'
import { cliArgs } from '../helpers/serve-child.js'

// `keys` and `wallet` act on the service's database without starting it: on a PostgreSQL server named by
// `--database` (adapters/cli/database-args.ts) they write where a running service reads.

test('the CLI manages keys and the wallet on PostgreSQL (--database)', async () => {
  const url = await freshPostgres()
  const run = promisify(execFile)
  const cli = (...args: string[]) => run(process.execPath, cliArgs(...args), { cwd: new URL('../..', import.meta.url).pathname })
  const created = JSON.parse((await cli('keys', 'create', '--database', url, '--json')).stdout) as { key: string; accountId: string }
  const shown = JSON.parse((await cli('wallet', 'deposit', '25', '--key', created.key, '--database', url)).stdout)
  assert.is(shown.balance, 25)
  const db = await openDatabase(url)
  assert.equal(await db.all(`SELECT kind, amount FROM wallet_ledger WHERE account_id = ?`, [created.accountId]), [{ kind: 'deposit', amount: 25 }])
  // Subscribed to wallet.deposit, the account's next CLI deposit is an event in the outbox, which a running server
  // sends within a second — as a deposit through the API is ("each deposit is its own event").
  const at = new Date().toISOString()
  await db.run('INSERT INTO webhooks (account_id, url, events, secret, updated_at) VALUES (?, ?, ?, ?, ?)', [
    created.accountId,
    'https://hooks.example.com/reelforge',
    JSON.stringify(['wallet.deposit']),
    'x'.repeat(16),
    at,
  ])
  await cli('wallet', 'deposit', '5', '--key', created.key, '--database', url)
  const sent = await db.all<{ event: string; body: string }>('SELECT event, body FROM webhook_deliveries WHERE account_id = ?', [created.accountId])
  assert.equal(
    sent.map((d) => [d.event, JSON.parse(d.body).data]),
    [['wallet.deposit', { amount: 5, balance: 30 }]],
  )
  await db.close()
})

test.run()
