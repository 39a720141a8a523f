import { join } from 'node:path'
import Database from 'better-sqlite3'
import pg from 'pg'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openDatabase } from '../../service/db/db.js'
import { migrations, POSTGRES, SQLITE } from '../../service/db/schema.js'
import { freshPostgres } from '../helpers/postgres.js'
import { tempDir } from '../helpers/media.js'

// One schema source (service/db/schema.ts) gives both engines their DDL: these check that what each engine
// ends up with is the same set of tables and columns, and that a database left at any earlier version by
// an older release migrates to exactly what a fresh one gets.

const test = suite('schema: SQLite and PostgreSQL from one source')

/** `table.column type null|not null`, sorted; types in SQLite's words. */
type Shape = string[]

const sqliteFile = () => join(tempDir('reelforge-schema-'), 'x.db')

function sqliteShape(path: string): Shape {
  const db = new Database(path, { readonly: true })
  try {
    const rows = db
      .prepare(
        `SELECT m.name AS t, c.name AS c, c.type AS type, c."notnull" AS nn, c.pk AS pk FROM sqlite_master m JOIN pragma_table_info(m.name) c WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'`,
      )
      .all() as { t: string; c: string; type: string; nn: number; pk: number }[]
    // A primary key is never null on either engine (SQLite reports only what was declared).
    return rows.map((r) => `${r.t}.${r.c} ${r.type.split(' ')[0]} ${r.nn || r.pk ? 'not null' : 'null'}`).sort()
  } finally {
    db.close()
  }
}

/** PostgreSQL's types in SQLite's words; `rowid` is the column SQLite has implicitly (not in pragma_table_info). */
const PG_TYPES: Record<string, string> = { text: 'TEXT', integer: 'INTEGER', bigint: 'INTEGER', 'double precision': 'REAL' }
async function postgresShape(url: string): Promise<Shape> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    const { rows } = await client.query<{ t: string; c: string; type: string; nullable: string }>(
      `SELECT table_name AS t, column_name AS c, data_type AS type, is_nullable AS nullable FROM information_schema.columns WHERE table_schema = current_schema() AND column_name <> 'rowid'`,
    )
    return rows.map((r) => `${r.t}.${r.c} ${PG_TYPES[r.type] ?? r.type} ${r.nullable === 'YES' ? 'null' : 'not null'}`).sort()
  } finally {
    await client.end()
  }
}

test('a fresh database has the same tables and columns (types, nullability) on both engines', async () => {
  const file = sqliteFile()
  await (await openDatabase(file)).close()
  const url = await freshPostgres()
  await (await openDatabase(url)).close()
  const lite = sqliteShape(file)
  assert.ok(lite.includes('wallet_ledger.id INTEGER not null') && lite.includes('queue_turns.last_turn INTEGER not null'))
  assert.equal(await postgresShape(url), lite)
})

test('SQLite: a database left at any earlier schema_version migrates to what a fresh one has', async () => {
  const fresh = sqliteFile()
  await (await openDatabase(fresh)).close()
  const steps = migrations(SQLITE)
  for (let at = 1; at < steps.length; at++) {
    const file = sqliteFile()
    const db = new Database(file)
    db.exec('CREATE TABLE schema_version (version INTEGER NOT NULL)')
    for (const step of steps.slice(0, at)) db.exec(step)
    db.prepare('INSERT INTO schema_version (version) VALUES (?)').run(at)
    db.close()
    const opened = await openDatabase(file)
    assert.is((await opened.get<{ version: number }>('SELECT version FROM schema_version'))!.version, steps.length)
    await opened.close()
    assert.equal(sqliteShape(file), sqliteShape(fresh), `from version ${at}`)
  }
})

test('PostgreSQL: a schema left at any earlier schema_version (its first step was SQLite 1–3) migrates to what a fresh one has', async () => {
  const fresh = await freshPostgres()
  await (await openDatabase(fresh)).close()
  const steps = migrations(POSTGRES)
  assert.is(steps.length, migrations(SQLITE).length - 2, 'PostgreSQL counts SQLite’s first three migrations as one step')
  for (let at = 1; at < steps.length; at++) {
    const url = await freshPostgres()
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    await client.query('CREATE TABLE schema_version (version INTEGER NOT NULL)')
    for (const step of steps.slice(0, at)) await client.query(step)
    await client.query('INSERT INTO schema_version (version) VALUES ($1)', [at])
    await client.end()
    const opened = await openDatabase(url)
    assert.is((await opened.get<{ version: number }>('SELECT version FROM schema_version'))!.version, steps.length)
    await opened.close()
    assert.equal(await postgresShape(url), await postgresShape(fresh), `from version ${at}`)
  }
})

test.run()
