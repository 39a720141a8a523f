import * as v from 'valibot'
import { num } from '../../../core/index.js'
import { ServiceError } from '../../../service/errors.js'
import type { KeyStore } from '../../../service/accounts/keys.js'
import { depositCredits } from '../../../service/billing/deposit.js'
import type { Wallet } from '../../../service/billing/wallet.js'
import { parseBody, readJson } from '../body.js'
import { queryParams } from '../query.js'
import { defineRoutes } from '../route.js'
import { named } from '../openapi-schemas.js'
import { ErrorBodySchema } from '../schemas.js'

const WalletSchema = v.object({ balance: v.number(), held: v.number(), available: v.number(), low_balance_threshold: v.number() })
const EntrySchema = v.object({
  id: v.number(),
  kind: v.picklist(['deposit', 'hold', 'charge', 'release', 'refund']),
  amount: v.number(),
  job_id: v.nullable(v.string()),
  note: v.nullable(v.string()),
  balance_after: v.number(),
  held_after: v.number(),
  created_at: v.string(),
})
named('Wallet', WalletSchema)
named('LedgerEntry', EntrySchema)
export const DepositSchema = v.strictObject({
  amount: v.pipe(
    num(),
    v.check((n: number) => n > 0 && n <= 1e9, 'must be greater than 0 and at most 1,000,000,000'),
  ),
  account_id: v.optional(v.pipe(v.string(), v.uuid('must be an account id'))),
  note: v.optional(
    v.pipe(
      v.string(),
      v.maxLength(500),
      v.check((s) => !s.includes('\u0000'), 'must not contain NUL characters'),
    ),
  ),
})
const ThresholdSchema = v.strictObject({
  low_balance_threshold: v.pipe(
    num(),
    v.check((n: number) => n >= 0, 'must be 0 or more'),
  ),
})
const err = { description: 'error', schema: ErrorBodySchema }

/** The prepaid credit wallet: balance, ledger, deposits (admin keys only), the low-balance threshold. */
export function walletRoutes(d: { keys: KeyStore; wallet: Wallet; bodyLimit: number }) {
  return defineRoutes([
    {
      method: 'get',
      path: '/v1/wallet',
      operationId: 'getWallet',
      auth: 'key',
      summary: 'Balance, held credits and the low-balance threshold',
      responses: { 200: { description: 'the wallet', schema: WalletSchema } },
      handler: (_event, p) => d.wallet.state(p.accountId),
    },
    {
      method: 'get',
      path: '/v1/wallet/ledger',
      operationId: 'listLedgerEntries',
      auth: 'key',
      // Entries name live renders (their ids open their files); sandbox work is never charged anyway.
      live: 'read the wallet ledger',
      summary: 'Ledger entries, newest first; page with `before` (an entry id)',
      query: { limit: '1–500 (default 50)', before: 'entries with a smaller id' },
      responses: { 200: { description: 'entries', schema: v.object({ entries: v.array(EntrySchema), next: v.nullable(v.number()) }) } },
      handler: async (event, p) => {
        const q = queryParams(event)
        const limit = q.limit(50, 500)
        const before = q.string('before')
        // Past the largest id is no id either: PostgreSQL's bigint would overflow (a 500).
        if (before !== undefined && !(/^\d+$/.test(before) && Number(before) <= Number.MAX_SAFE_INTEGER))
          throw new ServiceError('E_VALIDATION', 'before must be a ledger entry id', {
            issues: [{ path: 'before', message: 'must be a ledger entry id (a positive integer)' }],
          })
        const entries = await d.wallet.ledger(p.accountId, { limit, before: before ? Number(before) : undefined })
        return { entries, next: entries.length === limit ? entries.at(-1)!.id : null }
      },
    },
    {
      method: 'post',
      path: '/v1/wallet/deposits',
      auth: 'admin',
      live: 'deposit credits',
      summary: 'Add credits (admin keys only); emits wallet.deposit',
      description: "Body `{ amount, account_id?, note? }`; without `account_id` the admin key's own account.",
      body: DepositSchema,
      responses: { 201: { description: 'the wallet after the deposit', schema: WalletSchema }, 400: err },
      handler: async (event, p) => {
        const body = parseBody(DepositSchema, await readJson(event, d.bodyLimit))
        const wallet = await depositCredits(d, body.account_id ?? p.accountId, body.amount, body.note)
        event.res.status = 201
        return wallet
      },
    },
    {
      method: 'put',
      path: '/v1/wallet/threshold',
      auth: 'key',
      live: 'change the low-balance threshold',
      summary: 'Set the balance under which wallet.low_balance fires',
      body: ThresholdSchema,
      responses: { 200: { description: 'the wallet', schema: WalletSchema }, 400: err },
      handler: async (event, p) => {
        await d.wallet.setThreshold(p.accountId, parseBody(ThresholdSchema, await readJson(event, d.bodyLimit)).low_balance_threshold)
        return await d.wallet.state(p.accountId)
      },
    },
  ])
}
