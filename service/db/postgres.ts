import pg from 'pg'
import { Transactions, type Params, type Sql } from './sql.js'
import { migrations, POSTGRES } from './schema.js'
import { redact } from '../lib/redact.js'
import { logger } from '../log.js'
import { connectionFailure, databaseWatch, reached } from './postgres-outage.js'

/** BIGINT (epoch milliseconds, counts, serials) and NUMERIC as JS numbers, like SQLite returns them. */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === 20 || oid === 1700 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
}

/** The statement in flight (or the next one) fails too, and says so; the watch logs the outage once. */
const droppedWhileCheckedOut = (e: Error) => databaseWatch.failed(e)

/** A statement with `?` or `@name` placeholders in PostgreSQL's `$n` form, and the names in order. */
interface Translated {
  text: string
  names?: string[]
}

/**
 * PostgreSQL behind the `Sql` interface (node-postgres pool). Statements are written once with `?` / `@name`
 * placeholders for both engines and translated here (cached). A transaction checks out one pooled client;
 * the stores' queries inside it find that client through async context.
 */
export class PostgresSql implements Sql {
  readonly dialect = 'postgres' as const
  readonly forUpdate = 'FOR UPDATE'
  readonly skipLocked = 'FOR UPDATE SKIP LOCKED'
  private readonly translated = new Map<string, Translated>()
  private readonly tx: Transactions<pg.PoolClient>

  constructor(readonly pool: pg.Pool) {
    this.tx = new Transactions<pg.PoolClient>({
      open: () =>
        reached(async () => {
          const client = await pool.connect()
          // Checked out, a client has no listener of the pool's: a connection dropped between two statements of
          // the transaction would be an unhandled 'error' event, ending the process.
          client.on('error', droppedWhileCheckedOut)
          try {
            await client.query('BEGIN')
          } catch (e) {
            client.removeListener('error', droppedWhileCheckedOut)
            client.release(e as Error)
            throw e
          }
          return client
        }),
      commit: async (client) => {
        // After a failed statement PostgreSQL answers COMMIT with ROLLBACK and no error: a caller that caught
        // that failure and went on must not be told its writes were kept.
        const done = await reached(() => client.query('COMMIT'))
        if (done.command === 'ROLLBACK') throw new Error('the transaction was rolled back: a statement in it failed')
      },
      rollback: async (client) => void (await client.query('ROLLBACK')),
      exec: async (client, sql) => void (await reached(() => client.query(sql))),
      release: (client) => {
        client.removeListener('error', droppedWhileCheckedOut)
        client.release()
      },
    })
  }

  private translate(sql: string, params: Params): { text: string; values: unknown[] } {
    let t = this.translated.get(sql)
    if (!t) {
      if (Array.isArray(params)) {
        let i = 0
        t = { text: sql.replace(/\?/g, () => `$${++i}`) }
      } else {
        const names: string[] = []
        const text = sql.replace(/@([A-Za-z_]\w*)/g, (_, name: string) => {
          let at = names.indexOf(name)
          if (at < 0) at = names.push(name) - 1
          return `$${at + 1}`
        })
        t = { text, names }
      }
      if (this.translated.size > 500) this.translated.clear()
      this.translated.set(sql, t)
    }
    const values = t.names ? t.names.map((n) => pgValue((params as Record<string, unknown>)[n])) : (params as unknown[]).map(pgValue)
    return { text: t.text, values }
  }

  private async query(sql: string, params: Params): Promise<pg.QueryResult> {
    const { text, values } = this.translate(sql, params)
    const client = this.tx.current()?.conn ?? this.pool
    return reached(() => client.query(text, values))
  }

  async all<T>(sql: string, params: Params = []): Promise<T[]> {
    return (await this.query(sql, params)).rows as T[]
  }

  async get<T>(sql: string, params: Params = []): Promise<T | undefined> {
    return (await this.query(sql, params)).rows[0] as T | undefined
  }

  async run(sql: string, params: Params = []): Promise<number> {
    return (await this.query(sql, params)).rowCount ?? 0
  }

  transaction<T>(fn: () => Promise<T>): Promise<T> {
    return this.tx.run(fn)
  }

  savepoint<T>(fn: () => Promise<T>): Promise<T> {
    return this.tx.savepoint(fn)
  }

  afterCommit(fn: () => void | Promise<void>): void {
    this.tx.afterCommit(fn)
  }

  close(): Promise<void> {
    return this.pool.end()
  }
}

/**
 * PostgreSQL text cannot hold NUL. The API refuses NUL in the text it stores as given (notes, secrets); what
 * is left — a filter value, an error message from a tool — has it replaced by U+FFFD instead of failing.
 */
const pgValue = (v: unknown) =>
  typeof v === 'boolean' ? (v ? 1 : 0) : v === undefined ? null : typeof v === 'string' && v.includes('\u0000') ? v.replaceAll('\u0000', '\uFFFD') : v

const log = logger('postgres')

/**
 * Connects to PostgreSQL and brings the schema up to date. Several processes may start at once: the
 * migrations run under an advisory lock, so exactly one applies each.
 */
export async function openPostgres(url: string, opts: { max?: number } = {}): Promise<PostgresSql> {
  // A server that stops answering is noticed: connecting gives up after 10 s, and idle sockets are probed.
  const pool = new pg.Pool({ connectionString: url, max: opts.max ?? 10, types, connectionTimeoutMillis: 10_000, keepAlive: true })
  pool.on('error', (e) => (connectionFailure(e) ? databaseWatch.failed(e) : log.error(`idle client error: ${e.message}`)))
  const client = await pool.connect()
  try {
    await client.query('BEGIN')
    await client.query('SELECT pg_advisory_xact_lock(7215044)') // "reelforge migrations"
    await client.query('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)')
    const row = (await client.query('SELECT version FROM schema_version')).rows[0] as { version: number } | undefined
    if (!row) await client.query('INSERT INTO schema_version (version) VALUES (0)')
    const steps = migrations(POSTGRES)
    for (let version = row?.version ?? 0; version < steps.length; version++) {
      await client.query(steps[version]!)
      await client.query('UPDATE schema_version SET version = $1', [version + 1])
    }
    await client.query('COMMIT')
  } catch (e) {
    await client.query('ROLLBACK').catch(() => {})
    client.release()
    await pool.end()
    throw new Error(`PostgreSQL at ${redact(url)}: ${(e as Error).message}`)
  }
  client.release()
  return new PostgresSql(pool)
}
