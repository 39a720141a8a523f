import 'reflect-metadata'
import { openServiceDatabase, parseDatabaseCommand } from './database-args.js'
import { KeyStore } from '../../service/accounts/keys.js'
import { pricingFromConfig } from '../../service/billing/pricing-config.js'
import { Wallet } from '../../service/billing/wallet.js'

const USAGE = `usage:
  reelforge wallet deposit <amount> (--account ID | --key KEY) [--note TEXT] [--data ./data]
  reelforge wallet show (--account ID | --key KEY) [--data ./data]
  --database URL (or env REELFORGE_DATABASE_URL): a PostgreSQL store instead of <data>/reelforge.db`

/**
 * `reelforge wallet`: the prepaid wallet from the command line, on the service's database. A deposit made
 * here is in the ledger like any other; the running server's webhooks do not see it (use the admin route
 * `POST /v1/wallet/deposits` for a wallet.deposit event).
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
      console.error(values.key && !account ? 'unknown or revoked key' : USAGE)
      return 64
    }
    const wallet = new Wallet(db, pricingFromConfig())
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
