import type { Sql } from './sql.js'

/** The service database, whichever engine it runs on. */
export type Db = Sql

/** True for a PostgreSQL connection URL (otherwise the target is a SQLite file path). */
const isPostgresUrl = (target: string) => /^postgres(ql)?:\/\//i.test(target)

/**
 * Opens the service database: PostgreSQL for a `postgres://` URL, else the embedded SQLite file at that path.
 * Each engine's module is loaded only when chosen, so the default never loads `pg`.
 */
export async function openDatabase(target: string): Promise<Db> {
  if (isPostgresUrl(target)) return (await import('./postgres.js')).openPostgres(target)
  return (await import('./sqlite.js')).openSqlite(target)
}

export const nowIso = () => new Date().toISOString()
