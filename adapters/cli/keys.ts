import { openServiceDatabase, parseDatabaseCommand } from './database-args.js'
import { KeyStore } from '../../service/accounts/keys.js'

const USAGE = `usage:
  reelforge keys create [--sandbox] [--admin] [--account ID] [--data ./data]   print a new API key (shown once)
  reelforge keys list [--data ./data]
  reelforge keys revoke <key id> [--data ./data]
  --database URL (or env REELFORGE_DATABASE_URL): a PostgreSQL store instead of <data>/reelforge.db`

/** `reelforge keys`: manage API keys in the service database (stored hashed; the clear key is printed once). */
export async function keysCommand(argv: string[]): Promise<number> {
  const { action, values, positionals } = parseDatabaseCommand('keys', argv, {
    sandbox: { type: 'boolean' },
    admin: { type: 'boolean' },
    account: { type: 'string' },
    json: { type: 'boolean' },
  })
  // Asking how is answered before the database is opened (or created).
  if (values.help || !['create', 'list', 'revoke'].includes(action ?? '')) return (console.error(USAGE), values.help ? 0 : 64)
  const db = await openServiceDatabase(values, { create: action === 'create' })
  const keys = new KeyStore(db)
  try {
    switch (action) {
      case 'create': {
        const { key, record, signingSecret } = await keys.create({ sandbox: values.sandbox, admin: values.admin, accountId: values.account })
        if (values.json) console.log(JSON.stringify({ key, ...record, signingSecret }))
        else {
          console.log(key)
          console.error(
            `${record.sandbox ? 'sandbox' : 'live'}${record.admin ? ' admin' : ''} key ${record.keyId} for account ${record.accountId} — shown once, store it now`,
          )
          if (signingSecret) console.error(`callback signing secret of the new account (also shown once): ${signingSecret}`)
        }
        return 0
      }
      case 'list':
        for (const k of await keys.list())
          console.log(
            `${k.keyId}  ${k.prefix}…  account ${k.accountId}  ${k.sandbox ? 'sandbox' : 'live'}${k.admin ? ' admin' : ''}  ${k.revokedAt ? `revoked ${k.revokedAt}` : `created ${k.createdAt}`}`,
          )
        return 0
      case 'revoke':
        if (!positionals[0]) break
        if (!(await keys.revoke(positionals[0]))) {
          console.error(`error: no active key ${positionals[0]}`)
          return 1
        }
        console.log(`revoked ${positionals[0]}`)
        return 0
    }
    console.error(USAGE)
    return 64
  } finally {
    await db.close()
  }
}
