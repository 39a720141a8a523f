import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto'

const SEALED = 'enc:v1:'
const PLAIN = 'plain:'

/**
 * Integration secrets at rest: AES-256-GCM under a key derived (HKDF-SHA256) from the operator's
 * `REELFORGE_SECRET_KEY`, bound to what they belong to (`aad`: account and provider), so a sealed value copied
 * onto another account's row does not open. Without a server secret they are stored as given, marked
 * `plain:` — still never returned by the API — and sealed on the next write once a secret is configured.
 */
export class SecretBox {
  private readonly key: Buffer | undefined

  constructor(serverSecret: string | undefined) {
    this.key = serverSecret ? Buffer.from(hkdfSync('sha256', serverSecret, 'reelforge', 'integration secrets', 32)) : undefined
  }

  /** Whether secrets written now are encrypted. */
  get sealing(): boolean {
    return !!this.key
  }

  seal(secret: string, aad: string): string {
    if (!this.key) return `${PLAIN}${secret}`
    const iv = randomBytes(12)
    const cipher = createCipheriv('aes-256-gcm', this.key, iv)
    cipher.setAAD(Buffer.from(aad))
    const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()])
    return `${SEALED}${[iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.')}`
  }

  /** The secret; throws a message fit for the API when it cannot be opened (no key, or another key). */
  open(stored: string, aad: string): string {
    if (stored.startsWith(PLAIN)) return stored.slice(PLAIN.length)
    if (!stored.startsWith(SEALED)) throw new Error('the stored secret is in an unknown format: set the integration again')
    if (!this.key) throw new Error('the stored secret is encrypted but REELFORGE_SECRET_KEY is not set on this server')
    const [iv, tag, body] = stored
      .slice(SEALED.length)
      .split('.')
      .map((p) => Buffer.from(p, 'base64url'))
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, iv!)
      decipher.setAAD(Buffer.from(aad))
      decipher.setAuthTag(tag!)
      return Buffer.concat([decipher.update(body!), decipher.final()]).toString('utf8')
    } catch {
      throw new Error('the stored secret does not decrypt (REELFORGE_SECRET_KEY changed?): set the integration again')
    }
  }

  /** Whether a stored value is encrypted. */
  static sealed(stored: string): boolean {
    return stored.startsWith(SEALED)
  }
}
