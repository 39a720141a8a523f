import { ServiceError } from '../errors.js'
import type { KeyRecord, KeyStore, Principal } from './keys.js'

// Key management as the API and the CLI see it: the checks that make a request sensible (the account
// exists, a key does not revoke itself) live here, so a route handler only parses and shapes.

/** Makes a key; with `accountId` on that existing account (404 otherwise), without it on a new account. */
export async function createKey(keys: KeyStore, opts: { sandbox?: boolean; admin?: boolean; accountId?: string }) {
  if (opts.accountId && !(await accountExists(keys, opts.accountId))) throw new ServiceError('E_NOT_FOUND', `no account ${opts.accountId}`)
  return keys.create(opts)
}

/** Revokes `keyId` at once: 404 for an unknown key, 409 for the caller's own key or one already revoked. */
export async function revokeKey(keys: KeyStore, caller: Principal, keyId: string): Promise<KeyRecord> {
  const found = await findKey(keys, keyId)
  if (found.keyId === caller.keyId) throw new ServiceError('E_CONFLICT', 'a key cannot revoke itself (use another admin key)')
  if (!(await keys.revoke(keyId))) throw new ServiceError('E_CONFLICT', `key ${keyId} is already revoked`)
  return findKey(keys, keyId)
}

/** An account exists while it has a key (revoked ones count: its wallet and renders are still there). */
export const accountExists = async (keys: KeyStore, accountId: string) => (await keys.list(accountId)).length > 0

async function findKey(keys: KeyStore, keyId: string): Promise<KeyRecord> {
  const found = (await keys.list()).find((k) => k.keyId === keyId)
  if (!found) throw new ServiceError('E_NOT_FOUND', `no key ${keyId}`)
  return found
}
