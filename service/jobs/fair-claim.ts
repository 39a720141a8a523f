/**
 * The fair claim of the embedded queue, one statement on SQLite and PostgreSQL alike. Among the accounts with
 * QUEUED work it picks, in order:
 *   1. live work before sandbox work (a sandbox flood never delays a paid render),
 *   2. the account with the fewest renders running (accounts at `@cap` are skipped),
 *   3. the account served longest ago (`queue_turns.last_turn`; never served comes first) — round-robin,
 *   4. the account whose oldest waiting job is oldest,
 * and takes that account's oldest job of that kind. Each aggregate reads only QUEUED or PROCESSING rows
 * (the `jobs_queue` index), never an account's whole history.
 */
export const FAIR_CLAIM_SQL = `
  WITH waiting AS (
    SELECT account_id, sandbox, MIN(created_at) AS oldest FROM jobs
     WHERE status = 'QUEUED' AND cancel_requested = 0 GROUP BY account_id, sandbox),
  running AS (
    SELECT account_id, COUNT(*) AS n FROM jobs WHERE status = 'PROCESSING' GROUP BY account_id),
  chosen AS (
    SELECT w.account_id, w.sandbox, w.oldest FROM waiting w
      LEFT JOIN running r ON r.account_id = w.account_id
      LEFT JOIN queue_turns t ON t.account_id = w.account_id
     WHERE COALESCE(r.n, 0) < @cap
     ORDER BY w.sandbox, COALESCE(r.n, 0), COALESCE(t.last_turn, 0), w.oldest
     LIMIT 1)
  UPDATE jobs SET status = 'PROCESSING', stage = 'fetching', progress = 0, attempts = attempts + 1,
      lease_owner = @owner, lease_until = @until, updated_at = @now
   WHERE status = 'QUEUED' AND id = (
     SELECT j.id FROM jobs j, chosen c
      WHERE j.account_id = c.account_id AND j.sandbox = c.sandbox AND j.created_at = c.oldest
        AND j.status = 'QUEUED' AND j.cancel_requested = 0
      ORDER BY j.rowid LIMIT 1)
  RETURNING *`

/** Records that an account was served now: its turn becomes the newest (a counter, so ties cannot happen). */
export const TAKE_TURN_SQL = `
  INSERT INTO queue_turns (account_id, last_turn) VALUES (?, (SELECT COALESCE(MAX(last_turn), 0) + 1 FROM queue_turns))
    ON CONFLICT (account_id) DO UPDATE SET last_turn = excluded.last_turn`

/**
 * Claimers in several processes on one PostgreSQL take turns (a transaction-scoped advisory lock), so two never
 * both see an account under its cap and each take one of its jobs. SQLite has a single writer already.
 */
export const PG_CLAIM_LOCK_SQL = 'SELECT pg_advisory_xact_lock(7215045)' // "reelforge fair claim"
