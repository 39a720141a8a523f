/** A connection URL (Redis, PostgreSQL) without its credentials, for logs and messages. */
export const redact = (url: string) => url.replace(/\/\/[^@/]*@/, '//…@')

/**
 * A secret or credential as its owner is shown it (webhook secret, S3 secret key): `****` and, when it is long
 * enough that they give little away, its last 4 characters — enough to tell two apart, never more.
 */
export const maskSecret = (secret: string) => (secret.length >= 16 ? `****${secret.slice(-4)}` : '****')
