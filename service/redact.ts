/** A connection URL (Redis, PostgreSQL) without its credentials, for logs and messages. */
export const redact = (url: string) => url.replace(/\/\/[^@/]*@/, '//…@')
