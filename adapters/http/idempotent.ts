import type { H3Event } from 'h3'
import { RenderError } from '../../core/index.js'
import { ServiceError } from '../../service/errors.js'
import { type Idempotency, requestFingerprint } from '../../service/accounts/idempotency.js'
import type { Principal } from '../../service/accounts/keys.js'
import { rawBody, readJson } from './body.js'
import { STATUS } from './errors.js'
import { throughOutages } from '../../service/db/postgres-outage.js'
import { isUnavailable } from '../../service/lib/retry.js'

/**
 * Wraps a keyed POST handler with `Idempotency-Key` handling (see `Idempotency`). Without the header it just
 * runs. `register` has authenticated the caller: answers are stored per account, so it needs the principal.
 */
export function idempotent(handler: (event: H3Event, principal: Principal) => unknown, deps: { idempotency: Idempotency; bodyLimit: number }) {
  return async (event: H3Event, principal: Principal) => {
    const key = event.req.headers.get('idempotency-key')
    if (!key) return handler(event, principal)
    if (key.length > 255) throw new ServiceError('E_VALIDATION', 'Idempotency-Key must be at most 255 characters')
    // Sandbox keys keep their own key space: replaying a live key's answer (a new signing secret, a live job)
    // would hand a sandbox key what the routes refuse it.
    const scope = principal.sandbox ? `${principal.accountId}/sandbox` : principal.accountId
    // Optional: bodiless POSTs (rotate the secret, replay a delivery) take a key too; a route that needs a
    // body still refuses an empty one when its handler reads it.
    const value = await readJson(event, deps.bodyLimit, { optional: true })
    const fingerprint = requestFingerprint(event.req.method, new URL(event.req.url).pathname, { text: rawBody(event), value })
    const state = await deps.idempotency.begin(scope, key, fingerprint)
    if (state.kind === 'mismatch') throw new ServiceError('E_IDEMPOTENCY_MISMATCH', 'this Idempotency-Key was used with a different request body')
    if (state.kind === 'in-progress') throw new ServiceError('E_CONFLICT', 'a request with this Idempotency-Key is still being processed')
    if (state.kind === 'replay') {
      const headers = { 'content-type': 'application/json; charset=utf-8', 'idempotent-replayed': 'true' }
      return new Response(JSON.stringify(state.response), { status: state.status, headers })
    }
    try {
      const result = await handler(event, principal)
      await deps.idempotency.finish(scope, key, event.res.status ?? 200, result)
      return result
    } catch (e) {
      if ((e instanceof ServiceError || e instanceof RenderError) && STATUS[e.code] < 500) {
        // Client errors are answers too: the same request gets the same answer.
        const issues = e.data?.issues
        await deps.idempotency.finish(scope, key, STATUS[e.code], { error: { code: e.code, message: e.message, ...(issues ? { issues } : {}) } })
      } else
        await deps.idempotency.abandon(scope, key).catch((err) => {
          if (!isUnavailable(err)) throw err
          // The database went during the request: the key is let go once it is back (else its retry hears 409 for good).
          void throughOutages(() => deps.idempotency.abandon(scope, key)).catch(() => {})
        })
      throw e
    }
  }
}
