import { randomBytes } from 'node:crypto'

/** The loopback PostgreSQL server scripts/services.sh starts (trust auth for the `reelforge` role). */
export const PG_URL = process.env.REELFORGE_TEST_PG_URL ?? `postgres://reelforge@127.0.0.1:${process.env.REELFORGE_TEST_PG_PORT ?? 5499}/postgres`

/** Which store `testService` uses: `REELFORGE_TEST_STORE=postgres` runs a suite against PostgreSQL. */
export const TEST_STORE: 'sqlite' | 'postgres' = process.env.REELFORGE_TEST_STORE === 'postgres' ? 'postgres' : 'sqlite'

/**
 * A connection URL to an empty schema of its own (a schema is much cheaper to make than a database), so
 * every test service starts from nothing, as a fresh SQLite file does.
 */
export async function freshPostgres(): Promise<string> {
  const schema = `rf_${randomBytes(6).toString('hex')}`
  // Imported here: every /v1 test file loads this helper, and only the PostgreSQL pass needs the driver.
  const { default: pg } = await import('pg')
  const client = new pg.Client({ connectionString: PG_URL })
  await client.connect()
  try {
    await client.query(`CREATE SCHEMA ${schema}`)
  } finally {
    await client.end()
  }
  const url = new URL(PG_URL)
  url.searchParams.set('options', `-c search_path=${schema}`)
  return url.toString()
}
