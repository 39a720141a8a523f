import Database from 'better-sqlite3'
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { Transactions, type Params, type Sql } from './sql.js'
import { migrations, SQLITE } from './schema.js'
import { logger } from '../log.js'

const log = logger('db')

/** Requests' transactions committed together at most (bounds how long the first one waits). */
const MAX_BATCH = 64

/** An open SQLite transaction that finished requests' transactions were released into, awaiting COMMIT. */
interface Batch {
  members: number
  done: Promise<void>
  settle(error?: unknown): void
}

/** One request's transaction: a savepoint inside the batch. */
interface Member {
  released: boolean
}

function newBatch(): Batch {
  let settle!: Batch['settle']
  const done = new Promise<void>((resolve, reject) => (settle = (e) => (e === undefined ? resolve() : reject(e))))
  done.catch(() => {}) // members observe it; an unobserved failure is not a crash
  return { members: 0, done, settle }
}

/**
 * The embedded store: better-sqlite3 (synchronous, so every query finishes before the next starts) behind
 * the async `Sql` interface. Two connections per process on the WAL file: a writer, and a reader for
 * read-only statements outside transactions, which never wait (WAL readers see the last commit).
 *
 * Writes take the writer through an in-process FIFO lock. Group commit: a request's transaction runs as a
 * savepoint of one SQLite transaction shared with the requests that reach the writer while it is open; when
 * it finishes its savepoint is released and it waits; the COMMIT runs one event-loop turn after the writer
 * falls idle (or once 64 have joined), and only then do they all answer. One COMMIT (~100 µs of WAL writes
 * here) serves many requests; a request that fails rolls back to its own savepoint and leaves the others. Between processes (render children, a second
 * server) SQLite's own write lock and the busy timeout serialise.
 */
export class SqliteSql implements Sql {
  readonly dialect = 'sqlite' as const
  readonly forUpdate = ''
  readonly skipLocked = ''
  private readonly writerStatements = new Map<string, Database.Statement>()
  private readonly readerStatements = new Map<string, Database.Statement>()
  private locked = false
  private readonly waiting: Array<() => void> = []
  private batch: Batch | undefined
  private readonly tx: Transactions<Member>

  constructor(
    readonly db: Database.Database,
    private readonly reader: Database.Database = db,
  ) {
    this.tx = new Transactions<Member>({
      open: async () => {
        await this.acquire()
        try {
          if (!this.batch) {
            db.exec('BEGIN IMMEDIATE')
            this.batch = newBatch()
          }
          db.exec('SAVEPOINT member')
        } catch (e) {
          this.handOver()
          throw e
        }
        return { released: false }
      },
      commit: async (m) => {
        const batch = this.batch!
        db.exec('RELEASE SAVEPOINT member')
        batch.members++
        m.released = true
        this.handOver()
        await batch.done
      },
      rollback: async (m) => {
        // An error SQLite answers by abandoning the whole transaction takes the batch with it.
        if (!db.inTransaction) this.failBatch(new Error('the database abandoned the transaction'))
        else {
          try {
            db.exec('ROLLBACK TO SAVEPOINT member')
            db.exec('RELEASE SAVEPOINT member')
          } catch (e) {
            this.failBatch(e) // this member's writes cannot be taken out alone: nobody in the batch commits
          }
        }
        m.released = true
        this.handOver()
      },
      exec: (_m, sql) => void db.exec(sql),
      release: (m) => {
        if (m.released) return
        m.released = true
        this.handOver()
      },
    })
  }

  /** Takes the writer; waiters are served in arrival order, each woken once. */
  private acquire(): Promise<void> | void {
    if (!this.locked) {
      this.locked = true
      return
    }
    return new Promise((resolve) => this.waiting.push(resolve))
  }

  /**
   * Gives the writer to the next waiter. With nobody waiting, the batch stays open for one turn of the event
   * loop — requests still reading their bodies or validating reach it then — and commits after (at once when
   * full). Members answer only after that COMMIT.
   */
  private handOver(): void {
    if (this.batch && this.batch.members >= MAX_BATCH) this.commitBatch()
    const next = this.waiting.shift()
    if (next) {
      next() // handed over: stays locked
      return
    }
    this.locked = false
    if (this.batch && !this.flushScheduled) {
      this.flushScheduled = true
      setImmediate(() => {
        this.flushScheduled = false
        if (this.locked || !this.batch) return // the holder commits or schedules again
        this.locked = true
        this.commitBatch()
        this.handOver()
      })
    }
  }

  private flushScheduled = false

  private commitBatch(): void {
    const batch = this.batch!
    this.batch = undefined
    try {
      this.db.exec('COMMIT')
      batch.settle()
    } catch (e) {
      this.rollbackQuietly()
      batch.settle(e)
    }
  }

  private failBatch(e: unknown): void {
    const batch = this.batch
    this.batch = undefined
    this.rollbackQuietly()
    batch?.settle(e)
  }

  /** Ends whatever is left of a failed transaction; never throws (the lock must always move on). */
  private rollbackQuietly(): void {
    try {
      if (this.db.inTransaction) this.db.exec('ROLLBACK')
    } catch (e) {
      log.error('rollback failed:', (e as Error).message)
    }
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
   * outside transactions on the reader at once; any other write on the writer in its turn — inside an open
   * batch it joins it, and answers once the batch is committed.
   */
  private async exec<T>(sql: string, use: (stmt: Database.Statement) => T): Promise<T> {
    if (this.tx.current()) return use(this.cached(this.writerStatements, this.db, sql))
    if (this.reader !== this.db) {
      const stmt = this.cached(this.readerStatements, this.reader, sql)
      if (stmt.readonly) return use(stmt)
    }
    const wait = this.acquire()
    if (wait) await wait
    let joined: Batch | undefined
    try {
      const out = use(this.cached(this.writerStatements, this.db, sql))
      joined = this.batch
      if (joined) joined.members++
      return out
    } catch (e) {
      if (this.batch && !this.db.inTransaction) this.failBatch(e)
      throw e
    } finally {
      this.handOver()
      if (joined) await joined.done
    }
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

  savepoint<T>(fn: () => Promise<T>): Promise<T> {
    return this.tx.savepoint(fn)
  }

  afterCommit(fn: () => void | Promise<void>): void {
    this.tx.afterCommit(fn)
  }

  async close(): Promise<void> {
    const wait = this.acquire()
    if (wait) await wait
    if (this.batch) this.commitBatch()
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
  const steps = migrations(SQLITE)
  for (; version < steps.length; version++) {
    db.transaction(() => {
      db.exec(steps[version]!)
      db.prepare('UPDATE schema_version SET version = ?').run(version + 1)
    })()
  }
  // A second connection for reads (a file only: each `:memory:` connection is its own database).
  const reader = path === ':memory:' ? db : new Database(path, { readonly: true })
  if (reader !== db) reader.pragma('busy_timeout = 5000')
  return new SqliteSql(db, reader)
}
