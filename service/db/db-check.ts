import { mkdir } from 'node:fs/promises'
import { dirname } from 'node:path'

/**
 * Before a process opens its store for good: PostgreSQL answers (one connection, one `SELECT 1`, within
 * `timeoutMs`) and the database exists — it is not created here, an operator makes it once with `createdb`.
 * For SQLite, the file's folder can be made. Throws the reason in an operator's words.
 */
export async function checkDatabase(target: string, timeoutMs = 5000): Promise<void> {
  if (!/^postgres(ql)?:\/\//i.test(target)) {
    await mkdir(dirname(target), { recursive: true })
    return
  }
  const { default: pg } = await import('pg')
  const client = new pg.Client({ connectionString: target, connectionTimeoutMillis: timeoutMs })
  client.on('error', () => {}) // a connection lost after the check is not this check's
  const url = new URL(target)
  const database = decodeURIComponent(url.pathname.slice(1)) || url.username
  try {
    await client.connect()
    await client.query('SELECT 1')
  } catch (e) {
    const error = e as { code?: string; message?: string }
    if (error.code === '3D000') throw new Error(`database "${database}" does not exist (create it first: createdb ${database})`)
    const where = `${url.hostname}:${url.port || 5432}`
    if (error.code && /^E[A-Z]+$/.test(error.code)) throw new Error(`cannot reach PostgreSQL at ${where} (${error.code})`)
    throw new Error(`PostgreSQL at ${where}: ${error.message}`)
  } finally {
    await client.end().catch(() => {})
  }
}
