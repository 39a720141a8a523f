import { createHmac, timingSafeEqual } from 'node:crypto'

/** The signature header reelforge sends: `x-reelforge-signature: sha256=<hex>`. */
export const SIGNATURE_HEADER = 'x-reelforge-signature'

/** `sha256=<hex HMAC-SHA256 of the exact body bytes, keyed with the secret>`. */
export function signWebhook(body: string | Uint8Array, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`
}

/**
 * Checks a webhook's signature in constant time. `header` may carry the `sha256=` prefix or the bare hex
 * digest; `body` must be the raw bytes received (re-serialised JSON will not match).
 * @example
 * if (!verifyWebhook(rawBody, req.headers['x-reelforge-signature'], secret)) return res.writeHead(401).end()
 */
export function verifyWebhook(body: string | Uint8Array, header: string | string[] | undefined | null, secret: string): boolean {
  const value = Array.isArray(header) ? header[0] : header
  if (!value || !secret) return false
  const hex = value.trim().replace(/^sha256=/i, '')
  if (!/^[0-9a-f]{64}$/i.test(hex)) return false
  const expected = createHmac('sha256', secret).update(body).digest()
  return timingSafeEqual(Buffer.from(hex, 'hex'), expected)
}
