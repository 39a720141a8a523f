/**
 * The service schema, written once for both engines: migrations applied in order, once each (`schema_version`
 * remembers how far a database got). Never edit a shipped one: append. The few real differences between
 * SQLite and PostgreSQL are the dialect's words below; flags stay INTEGER 0/1 and times ISO text or epoch
 * milliseconds on both, so the stores' SQL and row mapping are the same everywhere.
 */
export interface Dialect {
  /** Floating point (credits, seconds, progress). */
  real: string
  /** Epoch milliseconds and ever-growing counters: past 2^31, so 64-bit on PostgreSQL. */
  bigint: string
  /** An increasing integer key (the ledger's order). */
  serialKey: string
  /**
   * PostgreSQL has no implicit `rowid`: tables whose ties the stores order by it (oldest first) get a real
   * column, written before `id`.
   */
  rowid: string
  /**
   * How many leading migrations this engine's `schema_version` counts as one step. PostgreSQL support
   * shipped when SQLite was at 3, as one migration creating that state; its databases count from there.
   */
  firstStep: number
}

export const SQLITE: Dialect = { real: 'REAL', bigint: 'INTEGER', serialKey: 'INTEGER PRIMARY KEY AUTOINCREMENT', rowid: '', firstStep: 1 }
export const POSTGRES: Dialect = {
  real: 'DOUBLE PRECISION',
  bigint: 'BIGINT',
  serialKey: 'BIGSERIAL PRIMARY KEY',
  rowid: 'rowid BIGSERIAL UNIQUE, ',
  firstStep: 3,
}

const MIGRATIONS: readonly ((d: Dialect) => string)[] = [
  (d) => `CREATE TABLE accounts (id TEXT PRIMARY KEY, created_at TEXT NOT NULL);
   CREATE TABLE api_keys (
     id TEXT PRIMARY KEY, account_id TEXT NOT NULL REFERENCES accounts(id), hash TEXT NOT NULL UNIQUE,
     prefix TEXT NOT NULL, sandbox INTEGER NOT NULL, admin INTEGER NOT NULL DEFAULT 0,
     created_at TEXT NOT NULL, revoked_at TEXT);
   CREATE TABLE jobs (
     ${d.rowid}id TEXT PRIMARY KEY, account_id TEXT NOT NULL, key_id TEXT NOT NULL, kind TEXT NOT NULL,
     status TEXT NOT NULL, stage TEXT, progress ${d.real} NOT NULL DEFAULT 0,
     request TEXT NOT NULL, callback TEXT, sandbox INTEGER NOT NULL,
     url TEXT, poster TEXT, thumbnail TEXT, duration ${d.real}, credits_used ${d.real} NOT NULL DEFAULT 0,
     error TEXT, warnings TEXT, attempts INTEGER NOT NULL DEFAULT 0,
     lease_owner TEXT, lease_until ${d.bigint}, cancel_requested INTEGER NOT NULL DEFAULT 0,
     created_at TEXT NOT NULL, updated_at TEXT NOT NULL, completed_at TEXT);
   CREATE INDEX jobs_queue ON jobs(status, created_at);
   CREATE INDEX jobs_account ON jobs(account_id, created_at);`,
  // Wallet: an append-only ledger, and per-account totals derived from it in the same transactions.
  (d) => `CREATE TABLE wallet_ledger (
     id ${d.serialKey}, account_id TEXT NOT NULL, kind TEXT NOT NULL CHECK (kind IN ('deposit','hold','charge','release','refund')),
     amount ${d.real} NOT NULL CHECK (amount >= 0), job_id TEXT, note TEXT, balance_after ${d.real} NOT NULL, held_after ${d.real} NOT NULL, created_at TEXT NOT NULL);
   CREATE UNIQUE INDEX wallet_ledger_once ON wallet_ledger(job_id, kind) WHERE job_id IS NOT NULL;
   CREATE INDEX wallet_ledger_account ON wallet_ledger(account_id, id);
   CREATE TABLE wallets (account_id TEXT PRIMARY KEY, balance ${d.real} NOT NULL DEFAULT 0, held ${d.real} NOT NULL DEFAULT 0,
     low_threshold ${d.real}, low_notified INTEGER NOT NULL DEFAULT 0);
   ALTER TABLE accounts ADD COLUMN signing_secret TEXT;
   CREATE TABLE webhooks (account_id TEXT PRIMARY KEY, url TEXT NOT NULL, events TEXT NOT NULL, secret TEXT NOT NULL, updated_at TEXT NOT NULL);
   CREATE TABLE webhook_deliveries (
     ${d.rowid}id TEXT PRIMARY KEY, account_id TEXT NOT NULL, event TEXT NOT NULL, target TEXT NOT NULL, url TEXT NOT NULL,
     body TEXT NOT NULL, secret TEXT NOT NULL, status TEXT NOT NULL, retry INTEGER NOT NULL DEFAULT 0,
     attempts INTEGER NOT NULL DEFAULT 0, next_attempt_at ${d.bigint}, in_flight INTEGER NOT NULL DEFAULT 0, last_status INTEGER, last_error TEXT,
     created_at TEXT NOT NULL, updated_at TEXT NOT NULL, delivered_at TEXT);
   CREATE INDEX webhook_due ON webhook_deliveries(status, next_attempt_at);
   CREATE INDEX webhook_account ON webhook_deliveries(account_id, created_at);
   CREATE TABLE webhook_attempts (delivery_id TEXT NOT NULL, attempt INTEGER NOT NULL, at TEXT NOT NULL, status INTEGER,
     error TEXT, duration_ms INTEGER NOT NULL, PRIMARY KEY (delivery_id, attempt));
   CREATE TABLE idempotency (account_id TEXT NOT NULL, key TEXT NOT NULL, fingerprint TEXT NOT NULL, status INTEGER,
     response TEXT, created_at ${d.bigint} NOT NULL, PRIMARY KEY (account_id, key));`,
  (d) => `CREATE TABLE images (
     ${d.rowid}id TEXT PRIMARY KEY, account_id TEXT NOT NULL, key_id TEXT NOT NULL, sandbox INTEGER NOT NULL, batch_id TEXT, item_index INTEGER,
     render_job TEXT, status TEXT NOT NULL, model TEXT NOT NULL, provider TEXT, request TEXT NOT NULL, width INTEGER NOT NULL,
     height INTEGER NOT NULL, url TEXT, credits_used ${d.real} NOT NULL DEFAULT 0, error TEXT, created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
   CREATE INDEX images_batch ON images(batch_id, item_index);
   CREATE INDEX images_pending ON images(status);
   CREATE TABLE image_batches (id TEXT PRIMARY KEY, account_id TEXT NOT NULL, created_at TEXT NOT NULL);`,
  // A render whose real length is known only once planned (smart timing) holds the rest of its price then: a
  // job may hold once at submission (no note) and once more per planned price (its note); it is still charged
  // and released once each.
  () => `DROP INDEX wallet_ledger_once;
   CREATE UNIQUE INDEX wallet_ledger_once ON wallet_ledger(job_id, kind) WHERE job_id IS NOT NULL AND (kind <> 'hold' OR note IS NULL);
   CREATE UNIQUE INDEX wallet_ledger_planned ON wallet_ledger(job_id, note) WHERE job_id IS NOT NULL AND kind = 'hold' AND note IS NOT NULL;`,
  // Tenants apart: a delivery's destination (URL origin, for the per-destination send limit) and whether sandbox
  // work caused it (sandbox keys see only those); the turn (a counter) each account was last served in by the
  // fair job claim.
  (d) => `ALTER TABLE webhook_deliveries ADD COLUMN origin TEXT;
   ALTER TABLE webhook_deliveries ADD COLUMN sandbox INTEGER NOT NULL DEFAULT 0;
   CREATE TABLE queue_turns (account_id TEXT PRIMARY KEY, last_turn ${d.bigint} NOT NULL);
   CREATE INDEX queue_turns_last ON queue_turns(last_turn);`,
  // Which way a job's offset.y counts (Shotstack's surface and `--y-axis up` count up) and which API it came
  // through (its callbacks take that API's shape); saved templates, per account and environment (sandbox).
  (d) => `ALTER TABLE jobs ADD COLUMN y_axis TEXT NOT NULL DEFAULT 'down';
   ALTER TABLE jobs ADD COLUMN api TEXT NOT NULL DEFAULT 'v1';
   CREATE TABLE templates (
     ${d.rowid}id TEXT PRIMARY KEY, account_id TEXT NOT NULL, sandbox INTEGER NOT NULL, name TEXT NOT NULL,
     template TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
   CREATE INDEX templates_account ON templates(account_id, sandbox, created_at);
   CREATE TABLE served_assets (
     ${d.rowid}id TEXT PRIMARY KEY, account_id TEXT NOT NULL, sandbox INTEGER NOT NULL, render_id TEXT NOT NULL, kind TEXT NOT NULL,
     storage_key TEXT NOT NULL, status TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL, UNIQUE (render_id, kind));`,
  // 7: hosted sources (issue 20): media a user imported from a URL or uploaded, per account and environment;
  // an upload waits for its bytes with the hash of its one-time token and an expiry.
  (d) => `CREATE TABLE sources (
     ${d.rowid}id TEXT PRIMARY KEY, account_id TEXT NOT NULL, sandbox INTEGER NOT NULL, status TEXT NOT NULL,
     input_url TEXT, storage_key TEXT, type TEXT, content_type TEXT, bytes ${d.bigint}, width INTEGER, height INTEGER,
     duration ${d.real}, fps ${d.real}, has_audio INTEGER NOT NULL DEFAULT 0, error TEXT, callback TEXT,
     filename TEXT, upload_token TEXT, upload_expires_at TEXT,
     created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
   CREATE INDEX sources_account ON sources(account_id, sandbox, created_at);
   CREATE INDEX sources_status ON sources(status);`,
  // destinations (issue 20): each render's `output.destinations` outcomes, and account-level integrations —
  // the credentials destinations copy with (the secret sealed, service/destinations/secret-box.ts).
  () => `ALTER TABLE jobs ADD COLUMN destinations TEXT;
   CREATE TABLE integrations (
     account_id TEXT NOT NULL, provider TEXT NOT NULL, settings TEXT NOT NULL, secret TEXT NOT NULL,
     created_at TEXT NOT NULL, updated_at TEXT NOT NULL, PRIMARY KEY (account_id, provider));`,
  // source renditions (issue 20): files made from a hosted source (Shotstack's `outputs.renditions`), in the order
  // asked, each with the request it was made from (JSON) and what ffprobe read from the result.
  (d) => `CREATE TABLE source_renditions (
     ${d.rowid}id TEXT PRIMARY KEY, source_id TEXT NOT NULL, position INTEGER NOT NULL, status TEXT NOT NULL, request TEXT NOT NULL,
     storage_key TEXT, content_type TEXT, bytes ${d.bigint}, width INTEGER, height INTEGER, duration ${d.real}, fps ${d.real},
     error TEXT, created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
   CREATE INDEX source_renditions_source ON source_renditions(source_id, position);`,
  // AI jobs (issue 21): text, speech, transcription, video and upscale requests, their results (a file's key,
  // text, timed words, extra files such as subtitles) per account and environment.
  (d) => `CREATE TABLE ai_jobs (
     ${d.rowid}id TEXT PRIMARY KEY, account_id TEXT NOT NULL, key_id TEXT NOT NULL, sandbox INTEGER NOT NULL, kind TEXT NOT NULL,
     status TEXT NOT NULL, model TEXT NOT NULL, provider TEXT, request TEXT NOT NULL, callback TEXT, storage_key TEXT,
     files TEXT, result_text TEXT, words TEXT, duration ${d.real}, credits_used ${d.real} NOT NULL DEFAULT 0, error TEXT,
     created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
   CREATE INDEX ai_jobs_account ON ai_jobs(account_id, sandbox, kind, created_at);
   CREATE INDEX ai_jobs_status ON ai_jobs(status);`,
  // Serve transfers (issue 33): one asset per destination of a `POST /serve/{env}/assets`, grouped by `batch_id`
  // (the client's `id` need not be unique), with where the copy went (`url`, `provider_id`, a hosted copy's key).
  (d) => `CREATE TABLE transfer_assets (
     ${d.rowid}id TEXT PRIMARY KEY, batch_id TEXT NOT NULL, position INTEGER NOT NULL, account_id TEXT NOT NULL,
     sandbox INTEGER NOT NULL, transfer_id TEXT NOT NULL, input_url TEXT NOT NULL, destination TEXT NOT NULL,
     provider TEXT NOT NULL, status TEXT NOT NULL, url TEXT, provider_id TEXT, storage_key TEXT, filename TEXT,
     error TEXT, created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
   CREATE INDEX transfer_assets_transfer ON transfer_assets(account_id, transfer_id);
   CREATE INDEX transfer_assets_batch ON transfer_assets(batch_id, position);
   CREATE INDEX transfer_assets_status ON transfer_assets(status);`,
  // Scaled out (issue 34): each event of a job is written once, whichever front end emits it — a delivery carries
  // the key of what happened (`render.processing/<job>#<attempt>`), unique per target, so a second front end's
  // insert is ignored.
  () => `ALTER TABLE webhook_deliveries ADD COLUMN event_key TEXT;
   CREATE UNIQUE INDEX webhook_once ON webhook_deliveries(event_key, target) WHERE event_key IS NOT NULL;`,
  // How a job is split over the workers (segments), decided when it was submitted and stored with it: whoever
  // queues it again follows it.
  () => `ALTER TABLE jobs ADD COLUMN segments INTEGER;`,
]

/** The engine's migration steps, in order: step i takes a database from `schema_version` i to i + 1. */
export function migrations(d: Dialect): string[] {
  const all = MIGRATIONS.map((m) => m(d))
  return [all.slice(0, d.firstStep).join('\n   '), ...all.slice(d.firstStep)]
}
