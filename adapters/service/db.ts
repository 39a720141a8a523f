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
  // Wallet: an append-only ledger, and per-account totals derived from it in the same transactions.
  `CREATE TABLE wallet_ledger (
     id INTEGER PRIMARY KEY AUTOINCREMENT, account_id TEXT NOT NULL, kind TEXT NOT NULL CHECK (kind IN ('deposit','hold','charge','release','refund')),
     amount REAL NOT NULL CHECK (amount >= 0), job_id TEXT, note TEXT, balance_after REAL NOT NULL, held_after REAL NOT NULL, created_at TEXT NOT NULL);
   CREATE UNIQUE INDEX wallet_ledger_once ON wallet_ledger(job_id, kind) WHERE job_id IS NOT NULL;
   CREATE INDEX wallet_ledger_account ON wallet_ledger(account_id, id);
   CREATE TABLE wallets (account_id TEXT PRIMARY KEY, balance REAL NOT NULL DEFAULT 0, held REAL NOT NULL DEFAULT 0,
     low_threshold REAL, low_notified INTEGER NOT NULL DEFAULT 0);
   ALTER TABLE accounts ADD COLUMN signing_secret TEXT;
   CREATE TABLE webhooks (account_id TEXT PRIMARY KEY, url TEXT NOT NULL, events TEXT NOT NULL, secret TEXT NOT NULL, updated_at TEXT NOT NULL);
   CREATE TABLE webhook_deliveries (
     id TEXT PRIMARY KEY, account_id TEXT NOT NULL, event TEXT NOT NULL, target TEXT NOT NULL, url TEXT NOT NULL,
     body TEXT NOT NULL, secret TEXT NOT NULL, status TEXT NOT NULL, retry INTEGER NOT NULL DEFAULT 0,
     attempts INTEGER NOT NULL DEFAULT 0, next_attempt_at INTEGER, in_flight INTEGER NOT NULL DEFAULT 0, last_status INTEGER, last_error TEXT,
     created_at TEXT NOT NULL, updated_at TEXT NOT NULL, delivered_at TEXT);
   CREATE INDEX webhook_due ON webhook_deliveries(status, next_attempt_at);
   CREATE INDEX webhook_account ON webhook_deliveries(account_id, created_at);
   CREATE TABLE webhook_attempts (delivery_id TEXT NOT NULL, attempt INTEGER NOT NULL, at TEXT NOT NULL, status INTEGER,
     error TEXT, duration_ms INTEGER NOT NULL, PRIMARY KEY (delivery_id, attempt));
   CREATE TABLE idempotency (account_id TEXT NOT NULL, key TEXT NOT NULL, fingerprint TEXT NOT NULL, status INTEGER,
     response TEXT, created_at INTEGER NOT NULL, PRIMARY KEY (account_id, key));`,
  `CREATE TABLE images (
     id TEXT PRIMARY KEY, account_id TEXT NOT NULL, key_id TEXT NOT NULL, sandbox INTEGER NOT NULL, batch_id TEXT, item_index INTEGER,
     render_job TEXT, status TEXT NOT NULL, model TEXT NOT NULL, provider TEXT, request TEXT NOT NULL, width INTEGER NOT NULL,
     height INTEGER NOT NULL, url TEXT, credits_used REAL NOT NULL DEFAULT 0, error TEXT, created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
   CREATE INDEX images_batch ON images(batch_id, item_index);
   CREATE INDEX images_pending ON images(status);
   CREATE TABLE image_batches (id TEXT PRIMARY KEY, account_id TEXT NOT NULL, created_at TEXT NOT NULL);`,
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
