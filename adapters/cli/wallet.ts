import 'reflect-metadata'
import { dataDirOf, openServiceDatabase, parseDatabaseCommand } from './database-args.js'
import { KeyStore } from '../../service/accounts/keys.js'
import { pricingFromConfig } from '../../service/billing/pricing-config.js'
import { Wallet } from '../../service/billing/wallet.js'
import { defaultConfig } from '../../service/config.js'
import { JobEvents } from '../../service/jobs/job-events.js'
import { systemClock } from '../../service/lib/clock.js'
import { WebhookOutbox } from '../../service/webhooks/outbox.js'
import { Webhooks } from '../../service/webhooks/webhooks.js'

const USAGE = `usage:
  reelforge wallet deposit <amount> (--account ID | --key KEY) [--note TEXT] [--data ./data]
  reelforge wallet show (--account ID | --key KEY) [--data ./data]
  --database URL (or env REELFORGE_DATABASE_URL): a PostgreSQL store instead of <data>/reelforge.db`

/**
 * `reelforge wallet`: the prepaid wallet from the command line, on the service's database. A deposit made
 * here is in the ledger like any other, and its `wallet.deposit` event in the outbox: a running server on the
 * same database sends it (this process sends nothing).
 */
export async function walletCommand(argv: string[]): Promise<number> {
  const { action, values, positionals } = parseDatabaseCommand('wallet', argv, {
    account: { type: 'string' },
    key: { type: 'string' },
    note: { type: 'string' },
  })
  // Asking how is answered before the database is opened (or created).
  if (values.help || !['deposit', 'show'].includes(action ?? '')) return (console.error(USAGE), values.help ? 0 : 64)
  const db = await openServiceDatabase(values)
  try {
    const account = values.account ?? (values.key ? (await new KeyStore(db).verify(values.key))?.accountId : undefined)
    if (!account || !['deposit', 'show'].includes(action ?? '')) {
      console.error(values.key && !account ? 'error: unknown or revoked key' : USAGE)
      return 64
    }
    const wallet = new Wallet(db, pricingFromConfig())
    // Listening to the wallet as a server's webhooks do: the deposit's event is written, to be sent by the server.
    const unsent = { send: async () => ({ status: null, ok: false, error: 'the CLI sends no webhooks', durationMs: 0 }) }
    new Webhooks(db, new WebhookOutbox(db, systemClock, unsent), systemClock, new JobEvents(), wallet, defaultConfig({ dataDir: dataDirOf(values) }))
    if (action === 'deposit') {
      const amount = Number(positionals[0])
      if (!(amount > 0)) {
        console.error(USAGE)
        return 64
      }
      await wallet.deposit(account, amount, values.note ?? 'cli deposit')
    }
    console.log(JSON.stringify(await wallet.state(account)))
    return 0
  } finally {
    await db.close()
  }
}
