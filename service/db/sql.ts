import { AsyncLocalStorage } from 'node:async_hooks'
import { logger } from '../log.js'

const log = logger('db')

/** Query parameters: positional (`?`) as an array, or named (`@name`) as an object. */
export type Params = readonly unknown[] | Record<string, unknown>

/**
 * The one database interface every store is written against (jobs, keys, wallet ledger, webhook outbox,
 * idempotency, images), with two implementations: embedded SQLite (the default) and PostgreSQL. Stores use
 * SQL both engines accept (`ON CONFLICT`, `RETURNING`, `CAST(? AS TEXT)` for a bare nullable parameter) and
 * ask the dialect only for what differs (row locks).
 */
export interface Sql {
  readonly dialect: 'sqlite' | 'postgres'
  all<T = Record<string, unknown>>(sql: string, params?: Params): Promise<T[]>
  get<T = Record<string, unknown>>(sql: string, params?: Params): Promise<T | undefined>
  /** Runs a statement; resolves to the number of rows it changed. */
  run(sql: string, params?: Params): Promise<number>
  /**
   * Runs `fn` in one transaction that holds the write lock (SQLite `BEGIN IMMEDIATE`; PostgreSQL row locks
   * via `forUpdate`). Every query made inside `fn` — in any function it calls — joins it, found through
   * async context; a nested call becomes a savepoint.
   */
  transaction<T>(fn: () => Promise<T>): Promise<T>
  /**
   * Runs `fn` as a savepoint of the current transaction — rolled back alone when it throws, so the caller's
   * transaction can go on (PostgreSQL refuses every statement after a failed one) — or, outside one, as it is.
   */
  savepoint<T>(fn: () => Promise<T>): Promise<T>
  /** Runs `fn` once the current transaction commits (at once outside one); dropped on rollback. */
  afterCommit(fn: () => void | Promise<void>): void
  /** `FOR UPDATE` where the engine locks rows (PostgreSQL), '' where the transaction locks everything. */
  readonly forUpdate: string
  /** `FOR UPDATE SKIP LOCKED` for a queue claim on PostgreSQL; '' on SQLite. */
  readonly skipLocked: string
  close(): Promise<void>
}

/** What a transaction carries through async context: its connection and what waits for its commit. */
export interface TxContext<C> {
  conn: C
  depth: number
  after: Array<() => void | Promise<void>>
}

/** How an engine begins, ends and gives back the connection of an outermost transaction. */
export interface TxEngine<C> {
  /** Acquires a connection and begins a transaction on it. */
  open(): Promise<C>
  /** Makes the work durable; resolves once it is. */
  commit(conn: C): Promise<void>
  /** Undoes the work. */
  rollback(conn: C): Promise<void>
  /** Runs a statement (savepoints of nested transactions). */
  exec(conn: C, sql: string): Promise<void> | void
  /** Gives the connection back (after commit or rollback; may be a no-op when commit already did). */
  release(conn: C): Promise<void> | void
}

/**
 * The transaction logic both engines share: the outermost call begins and commits (running `afterCommit`
 * callbacks after), nested calls use savepoints.
 */
export class Transactions<C> {
  readonly als = new AsyncLocalStorage<TxContext<C>>()

  constructor(private readonly engine: TxEngine<C>) {}

  current(): TxContext<C> | undefined {
    return this.als.getStore()
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    const outer = this.als.getStore()
    if (outer) {
      const name = `sp${outer.depth + 1}`
      await this.engine.exec(outer.conn, `SAVEPOINT ${name}`)
      try {
        const out = await this.als.run({ ...outer, depth: outer.depth + 1 }, fn)
        await this.engine.exec(outer.conn, `RELEASE SAVEPOINT ${name}`)
        return out
      } catch (e) {
        await this.engine.exec(outer.conn, `ROLLBACK TO SAVEPOINT ${name}`)
        await this.engine.exec(outer.conn, `RELEASE SAVEPOINT ${name}`)
        throw e
      }
    }
    const conn = await this.engine.open()
    const ctx: TxContext<C> = { conn, depth: 0, after: [] }
    let out: T
    try {
      out = await this.als.run(ctx, fn)
    } catch (e) {
      await this.engine.rollback(conn).catch(() => {})
      await this.engine.release(conn)
      throw e
    }
    try {
      await this.engine.commit(conn)
    } finally {
      await this.engine.release(conn)
    }
    for (const cb of ctx.after) await runLogged(cb)
    return out
  }

  /** `fn` as a savepoint of the current transaction, or as it is outside one (`Sql.savepoint`). */
  savepoint<T>(fn: () => Promise<T>): Promise<T> {
    return this.current() ? this.run(fn) : fn()
  }

  afterCommit(fn: () => void | Promise<void>): void {
    const ctx = this.als.getStore()
    if (ctx) ctx.after.push(fn)
    else queueMicrotask(() => void runLogged(fn))
  }
}

async function runLogged(fn: () => void | Promise<void>): Promise<void> {
  try {
    await fn()
  } catch (e) {
    log.error('after-commit callback failed:', e)
  }
}
