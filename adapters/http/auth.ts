import type { H3Event } from 'h3'
import type { KeyStore, Principal } from '../../service/accounts/keys.js'
import { ServiceError } from '../../service/errors.js'

/**
 * The caller's principal from `Authorization: Bearer <key>`. `x-api-key` (Shotstack's header) is not a
 * credential here, as the seed says — a request carrying only that gets a 401 saying so.
 */
export async function authenticate(event: H3Event, keys: KeyStore): Promise<Principal> {
  const header = event.req.headers.get('authorization') ?? ''
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header)
  if (!match) {
    const hint = event.req.headers.has('x-api-key') ? ' (the x-api-key header is not accepted; send Authorization: Bearer <key>)' : ''
    // A header in another form (`Basic …`, a bare `Bearer`) is there, just wrong: "missing" would mislead.
    if (header.trim()) throw new ServiceError('E_UNAUTHORIZED', `the Authorization header must be Bearer <key>${hint}`)
    throw new ServiceError('E_UNAUTHORIZED', `missing Authorization: Bearer <key>${hint}`)
  }
  const principal = await keys.verify(match[1]!)
  if (!principal) throw new ServiceError('E_UNAUTHORIZED', 'invalid or revoked API key')
  return principal
}

/**
 * What a route's spec declares beyond a valid key (see `RouteAccess`): an admin key, a live key. Admin is
 * checked first, so a non-admin sandbox key hears that it is not an admin.
 */
export function authorize(principal: Principal, access: { auth: 'key' | 'admin'; live?: string }): void {
  if (access.auth === 'admin') requireAdmin(principal)
  if (access.live !== undefined) requireLive(principal, access.live)
}

/** Admin-only routes. */
function requireAdmin(principal: Principal): void {
  if (!principal.admin) throw new ServiceError('E_FORBIDDEN', 'this route needs an admin key (reelforge keys create --admin)')
}

/**
 * Account settings and money are for live keys only: a sandbox key is a sandbox — it sees and acts on sandbox
 * work and changes nothing that live work depends on (webhook, signing secret, threshold, deposits, keys).
 */
function requireLive(principal: Principal, what: string): void {
  if (principal.sandbox) throw new ServiceError('E_FORBIDDEN', `sandbox keys cannot ${what}; use a live key of this account`)
}
