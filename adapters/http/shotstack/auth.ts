import type { H3Event } from 'h3'
import type { KeyStore, Principal } from '../../../service/accounts/keys.js'
import { failure } from './envelope.js'

/** Shotstack's two environments: `stage` (sandbox keys, watermarked) and `v1` (production, live keys). */
export type ShotstackEnv = 'stage' | 'v1'

/**
 * The caller behind `x-api-key`, the only header Shotstack's SDKs send, in the environment the path names:
 * a sandbox key on a `v1` path or a live key on a `stage` path is refused, as Shotstack refuses a key of the
 * other environment. Returns the refusal as a Response (401 without a key, 403 for a wrong one), in `shape`: the
 * API's own error shape (the Ingest API's differs from the Edit and Serve envelope).
 */
export async function shotstackCaller(event: H3Event, keys: KeyStore, env: ShotstackEnv, shape = failure): Promise<Principal | Response> {
  const presented = event.req.headers.get('x-api-key')?.trim()
  if (!presented) {
    const hint = event.req.headers.has('authorization') ? " (this is Shotstack's API: send the key as x-api-key; Bearer is for /v1)" : ''
    return shape(401, `missing x-api-key header${hint}`)
  }
  const principal = await keys.verify(presented)
  if (!principal) return shape(403, 'invalid or revoked API key')
  if (env === 'v1' && principal.sandbox)
    return shape(403, 'a sandbox key works on the stage environment only: use /edit/stage, /serve/stage, /ingest/stage, /create/stage')
  if (env === 'stage' && !principal.sandbox)
    return shape(403, 'a production key works on the v1 environment only: use /edit/v1, /serve/v1, /ingest/v1, /create/v1')
  return principal
}
