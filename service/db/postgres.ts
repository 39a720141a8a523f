import pg from 'pg'
import { Transactions, type Params, type Sql } from './sql.js'
import { migrations, POSTGRES } from './schema.js'
import { redact } from '../redact.js'

/** BIGINT (epoch milliseconds, counts, serials) and NUMERIC as JS numbers, like SQLite returns them. */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === 20 || oid === 1700 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
}

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
      open: async () => {
        const client = await pool.connect()
        try {
          await client.query('BEGIN')
        } catch (e) {
          client.release(e as Error)
          throw e
        }
        return client
      },
      commit: async (client) => void (await client.query('COMMIT')),
      rollback: async (client) => void (await client.query('ROLLBACK')),
      exec: async (client, sql) => void (await client.query(sql)),
      release: (client) => client.release(),
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
    return client.query(text, values)
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

/**
 * Connects to PostgreSQL and brings the schema up to date. Several processes may start at once: the
 * migrations run under an advisory lock, so exactly one applies each.
 */
export async function openPostgres(url: string, opts: { max?: number } = {}): Promise<PostgresSql> {
  const pool = new pg.Pool({ connectionString: url, max: opts.max ?? 10, types })
  pool.on('error', (e) => console.error('[postgres] idle client error:', e.message))
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
