import { accountExists } from '../accounts/key-admin.js'
import type { KeyStore } from '../accounts/keys.js'
import { ServiceError } from '../errors.js'
import type { Wallet, WalletState } from './wallet.js'

/**
 * An admin's deposit into `accountId` (an account that has keys: a typo'd id would otherwise open a wallet no
 * key can spend). The wallet emits wallet.deposit after the commit.
 */
export async function depositCredits(d: { keys: KeyStore; wallet: Wallet }, accountId: string, amount: number, note?: string): Promise<WalletState> {
  if (!(await accountExists(d.keys, accountId))) throw new ServiceError('E_NOT_FOUND', `no account ${accountId}`)
  return d.wallet.deposit(accountId, amount, note)
}
