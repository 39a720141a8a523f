import Database from 'better-sqlite3'
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'

export type Db = Database.Database

/** Schema changes, applied in order once each (`schema_version` remembers how far a database got). */
const MIGRATIONS: string[] = [
  `CREATE TABLE accounts (id TEXT PRIMARY KEY, created_at TEXT NOT NULL);
   CREATE TABLE api_keys (
     id TEXT PRIMARY KEY, account_id TEXT NOT NULL REFERENCES accounts(id), hash TEXT NOT NULL UNIQUE,
     prefix TEXT NOT NULL, sandbox INTEGER NOT NULL, admin INTEGER NOT NULL DEFAULT 0,
     created_at TEXT NOT NULL, revoked_at TEXT);
   CREATE TABLE jobs (
     id TEXT PRIMARY KEY, account_id TEXT NOT NULL, key_id TEXT NOT NULL, kind TEXT NOT NULL,
     status TEXT NOT NULL, stage TEXT, progress REAL NOT NULL DEFAULT 0,
     request TEXT NOT NULL, callback TEXT, sandbox INTEGER NOT NULL,
     url TEXT, poster TEXT, thumbnail TEXT, duration REAL, credits_used REAL NOT NULL DEFAULT 0,
     error TEXT, warnings TEXT, attempts INTEGER NOT NULL DEFAULT 0,
     lease_owner TEXT, lease_until INTEGER, cancel_requested INTEGER NOT NULL DEFAULT 0,
     created_at TEXT NOT NULL, updated_at TEXT NOT NULL, completed_at TEXT);
   CREATE INDEX jobs_queue ON jobs(status, created_at);
   CREATE INDEX jobs_account ON jobs(account_id, created_at);`,
]

/**
 * Opens (creating if needed) the service database: WAL so readers never wait for the writer, NORMAL sync
 * (durable at each checkpoint, safe against process crashes), a busy timeout for concurrent processes.
 */
export function openDatabase(path: string): Db {
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
  for (; version < MIGRATIONS.length; version++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[version]!)
      db.prepare('UPDATE schema_version SET version = ?').run(version + 1)
    })()
  }
  return db
}

/** Registers a further migration (later modules — wallet, webhooks — add their tables this way). */
export function addMigration(sql: string): void {
  MIGRATIONS.push(sql)
}

export const nowIso = () => new Date().toISOString()
