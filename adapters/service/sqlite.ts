import Database from 'better-sqlite3'
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { Transactions, type Params, type Sql } from './sql.js'
import { SQLITE_MIGRATIONS } from './schema-sqlite.js'

/**
 * The embedded store: better-sqlite3 (synchronous, so every query finishes before the next starts) behind
 * the async `Sql` interface. One connection per process; a transaction takes an in-process lock so that
 * queries from other requests wait until it commits instead of slipping into it while it awaits. Between
 * processes (render children, a second server) SQLite's own write lock and the busy timeout serialise.
 */
export class SqliteSql implements Sql {
  readonly dialect = 'sqlite' as const
  readonly forUpdate = ''
  readonly skipLocked = ''
  private readonly statements = new Map<string, Database.Statement>()
  private lock: Promise<void> | undefined
  private readonly tx: Transactions<Database.Database>

  constructor(readonly db: Database.Database) {
    let unlock: (() => void) | undefined
    this.tx = new Transactions(
      async () => {
        while (this.lock) await this.lock
        this.lock = new Promise((r) => (unlock = r))
        try {
          db.exec('BEGIN IMMEDIATE')
        } catch (e) {
          this.lock = undefined
          unlock!()
          throw e
        }
        return db
      },
      (conn, sql) => void conn.exec(sql),
      () => {
        this.lock = undefined
        unlock!()
      },
    )
  }

  /** Waits while another request's transaction holds the connection (never for our own). */
  private async ready(): Promise<void> {
    if (this.tx.current()) return
    while (this.lock) await this.lock
  }

  private prepare(sql: string): Database.Statement {
    let stmt = this.statements.get(sql)
    if (!stmt) {
      stmt = this.db.prepare(sql)
      if (this.statements.size > 500) this.statements.clear()
      this.statements.set(sql, stmt)
    }
    return stmt
  }

  async all<T>(sql: string, params: Params = []): Promise<T[]> {
    await this.ready()
    return this.prepare(sql).all(bind(params)) as T[]
  }

  async get<T>(sql: string, params: Params = []): Promise<T | undefined> {
    await this.ready()
    return this.prepare(sql).get(bind(params)) as T | undefined
  }

  async run(sql: string, params: Params = []): Promise<number> {
    await this.ready()
    const stmt = this.prepare(sql)
    // A statement with RETURNING is a reader in better-sqlite3: its rows are what it changed.
    return stmt.reader ? stmt.all(bind(params)).length : stmt.run(bind(params)).changes
  }

  transaction<T>(fn: () => Promise<T>): Promise<T> {
    return this.tx.run(fn)
  }

  afterCommit(fn: () => void | Promise<void>): void {
    this.tx.afterCommit(fn)
  }

  async close(): Promise<void> {
    while (this.lock) await this.lock
    this.db.close()
  }
}

/** better-sqlite3 takes positional parameters spread and named ones as one object; booleans as 0/1. */
function bind(params: Params): unknown {
  if (Array.isArray(params)) return params.map(sqliteValue)
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(params)) out[k] = sqliteValue(v)
  return out
}
const sqliteValue = (v: unknown) => (typeof v === 'boolean' ? (v ? 1 : 0) : v)

/**
 * Opens (creating if needed) the SQLite database: WAL so readers never wait for the writer, NORMAL sync
 * (durable at each checkpoint, safe against process crashes), a busy timeout for concurrent processes.
 */
export function openSqlite(path: string): SqliteSql {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true })
  const db = new Database(path)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = NORMAL')
  db.pragma('busy_timeout = 5000')
  db.pragma('foreign_keys = ON')
  db.exec('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)')
  const row = db.prepare('SELECT version FROM schema_version').get() as { version: number } | undefined
  let version = row?.version ?? 0
  if (!row) db.prepare('INSERT INTO schema_version (version) VALUES (0)').run()
  for (; version < SQLITE_MIGRATIONS.length; version++) {
    db.transaction(() => {
      db.exec(SQLITE_MIGRATIONS[version]!)
      db.prepare('UPDATE schema_version SET version = ?').run(version + 1)
    })()
  }
  return new SqliteSql(db)
}
