import Database from 'better-sqlite3'
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { Transactions, type Params, type Sql } from './sql.js'
import { SQLITE_MIGRATIONS } from './schema-sqlite.js'

/**
 * The embedded store: better-sqlite3 (synchronous, so every query finishes before the next starts) behind
 * the async `Sql` interface. Two connections per process on the WAL file: a writer, and a reader for
 * read-only statements outside transactions, which never wait (WAL readers see the last commit). A
 * transaction holds the writer through an in-process FIFO lock, so writes from other requests queue behind it
 * instead of slipping into it while it awaits. Between processes (render children, a second server) SQLite's
 * own write lock and the busy timeout serialise.
 */
export class SqliteSql implements Sql {
  readonly dialect = 'sqlite' as const
  readonly forUpdate = ''
  readonly skipLocked = ''
  private readonly writerStatements = new Map<string, Database.Statement>()
  private readonly readerStatements = new Map<string, Database.Statement>()
  private locked = false
  private readonly waiting: Array<() => void> = []
  private readonly tx: Transactions<Database.Database>

  constructor(
    readonly db: Database.Database,
    private readonly reader: Database.Database = db,
  ) {
    this.tx = new Transactions(
      async () => {
        await this.acquire()
        try {
          db.exec('BEGIN IMMEDIATE')
        } catch (e) {
          this.releaseLock()
          throw e
        }
        return db
      },
      (conn, sql) => void conn.exec(sql),
      () => this.releaseLock(),
    )
  }

  /** Takes the writer; waiters are served in arrival order, each woken once. */
  private acquire(): Promise<void> | void {
    if (!this.locked) {
      this.locked = true
      return
    }
    return new Promise((resolve) => this.waiting.push(resolve))
  }

  private releaseLock(): void {
    const next = this.waiting.shift()
    if (next) next() // handed over: stays locked
    else this.locked = false
  }

  private cached(map: Map<string, Database.Statement>, conn: Database.Database, sql: string): Database.Statement {
    let stmt = map.get(sql)
    if (!stmt) {
      stmt = conn.prepare(sql)
      if (map.size > 500) map.clear()
      map.set(sql, stmt)
    }
    return stmt
  }

  /**
   * Runs a statement where it belongs: inside this request's transaction on the writer; a read-only one
   * outside transactions on the reader at once; any other write on the writer once no transaction holds it.
   */
  private async exec<T>(sql: string, use: (stmt: Database.Statement) => T): Promise<T> {
    if (this.tx.current()) return use(this.cached(this.writerStatements, this.db, sql))
    if (this.reader !== this.db) {
      const stmt = this.cached(this.readerStatements, this.reader, sql)
      if (stmt.readonly) return use(stmt)
    }
    if (this.locked) {
      await this.acquire()
      try {
        return use(this.cached(this.writerStatements, this.db, sql))
      } finally {
        this.releaseLock()
      }
    }
    return use(this.cached(this.writerStatements, this.db, sql))
  }

  all<T>(sql: string, params: Params = []): Promise<T[]> {
    return this.exec(sql, (stmt) => stmt.all(bind(params)) as T[])
  }

  get<T>(sql: string, params: Params = []): Promise<T | undefined> {
    return this.exec(sql, (stmt) => stmt.get(bind(params)) as T | undefined)
  }

  run(sql: string, params: Params = []): Promise<number> {
    // A statement with RETURNING is a reader in better-sqlite3: its rows are what it changed.
    return this.exec(sql, (stmt) => (stmt.reader ? stmt.all(bind(params)).length : stmt.run(bind(params)).changes))
  }

  transaction<T>(fn: () => Promise<T>): Promise<T> {
    return this.tx.run(fn)
  }

  afterCommit(fn: () => void | Promise<void>): void {
    this.tx.afterCommit(fn)
  }

  async close(): Promise<void> {
    await this.acquire()
    if (this.reader !== this.db) this.reader.close()
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
  // A second connection for reads (a file only: each `:memory:` connection is its own database).
  const reader = path === ':memory:' ? db : new Database(path, { readonly: true })
  if (reader !== db) reader.pragma('busy_timeout = 5000')
  return new SqliteSql(db, reader)
}
