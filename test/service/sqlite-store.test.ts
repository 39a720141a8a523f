import { join } from 'node:path'
import Database from 'better-sqlite3'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openSqlite, type SqliteSql } from '../../service/db/sqlite.js'
import { tempDir } from '../helpers/media.js'

// The embedded store's write path: group commit (requests' transactions as savepoints of one SQLite
// transaction) and the read-only connection. The /v1 suite covers the stores on top of it.

const test = suite('SQLite store: group commit')

/** A store on a fresh file, counting the COMMITs its writer runs. */
function store() {
  const path = join(tempDir('reelforge-sqlite-'), 'x.db')
  const sql = openSqlite(path)
  const commits = { n: 0, fail: false }
  const exec = sql.db.exec.bind(sql.db)
  sql.db.exec = (text: string) => {
    if (text === 'COMMIT') {
      commits.n++
      if (commits.fail) {
        commits.fail = false
        throw new Error('disk I/O error (simulated)')
      }
    }
    return exec(text)
  }
  /** What another process would see: a connection of its own. */
  const outside = () => {
    const db = new Database(path, { readonly: true })
    try {
      return (db.prepare('SELECT id FROM accounts ORDER BY id').all() as { id: string }[]).map((r) => r.id)
    } finally {
      db.close()
    }
  }
  return { sql, commits, outside }
}
const insert = (sql: SqliteSql, id: string) => sql.run('INSERT INTO accounts (id, created_at) VALUES (?, ?)', [id, 'now'])

test('20 concurrent transactions share few COMMITs; a failing one rolls back alone; each answers after its commit', async () => {
  const { sql, commits, outside } = store()
  const seen: Record<string, string[]> = {}
  const results = await Promise.allSettled(
    Array.from({ length: 20 }, async (_, i) => {
      const id = `a${String(i).padStart(2, '0')}`
      await sql.transaction(async () => {
        await insert(sql, id)
        await new Promise((r) => setImmediate(r)) // work that awaits inside the transaction
        if (i === 7) throw new Error('refused')
      })
      seen[id] = outside() // answered: so committed, visible to any other connection
    }),
  )
  assert.is(results.filter((r) => r.status === 'rejected').length, 1)
  const expected = Array.from({ length: 20 }, (_, i) => `a${String(i).padStart(2, '0')}`).filter((id) => id !== 'a07')
  assert.equal(outside(), expected, 'every transaction but the failed one committed')
  for (const id of expected) assert.ok(seen[id]!.includes(id), `${id} was visible when its transaction returned`)
  assert.ok(commits.n >= 1 && commits.n < 10, `${commits.n} COMMITs for 20 transactions`)
  await sql.close()
})

test('a failed COMMIT fails every member of its batch and keeps none of their writes', async () => {
  const { sql, commits, outside } = store()
  await sql.transaction(() => insert(sql, 'before'))
  commits.fail = true
  const results = await Promise.allSettled(Array.from({ length: 5 }, (_, i) => sql.transaction(() => insert(sql, `b${i}`))))
  assert.ok(
    results.every((r) => r.status === 'rejected' && /disk I\/O error/.test(String(r.reason))),
    JSON.stringify(results),
  )
  assert.equal(outside(), ['before'])
  await sql.transaction(() => insert(sql, 'after'))
  assert.equal(outside(), ['after', 'before'], 'the store works on')
  await sql.close()
})

test('writes outside transactions join an open batch and answer after its commit; reads never wait', async () => {
  const { sql, outside } = store()
  let release!: () => void
  const holding = sql.transaction(async () => {
    await insert(sql, 'held')
    await new Promise<void>((r) => (release = r))
  })
  await new Promise((r) => setImmediate(r))
  // A reader is not blocked by the open transaction, and does not see its uncommitted row.
  assert.equal(await sql.all('SELECT id FROM accounts'), [])
  const write = insert(sql, 'plain').then(() => outside())
  release()
  await holding
  assert.ok((await write).includes('plain'), 'the plain write was committed when it answered')
  assert.equal(outside(), ['held', 'plain'])
  await sql.close()
})

test.run()
