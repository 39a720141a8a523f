import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { testService } from '../../helpers/service.js'

// Shotstack's `GET /ingest/{v1,stage}/sources` has no paging in its spec: a client expects every source in one
// answer. More than a store page (200) of them, many made in the same millisecond, must all come back once.

test('GET /ingest/v1/sources lists every source once, past the store page and across same-millisecond ties', async () => {
  const svc = await testService({ config: { shotstack: true } })
  try {
    const caller = { accountId: svc.liveAccount, keyId: 'test', sandbox: false, admin: false }
    const made: string[] = []
    for (let i = 0; i < 450; i++) made.push((await svc.sources.create(caller, { url: `https://example.com/${i}.mp4` })).id)
    // Half of them share one created_at: a page that ends inside them must not skip or repeat any.
    await svc.db.run(
      'UPDATE sources SET created_at = ? WHERE id IN (' +
        made
          .slice(100, 325)
          .map(() => '?')
          .join(', ') +
        ')',
      ['2026-01-01T00:00:00.000Z', ...made.slice(100, 325)],
    )
    // Another account's source is not listed.
    const other = await svc.keys.create()
    await svc.sources.create({ accountId: other.record.accountId, keyId: 'test', sandbox: false, admin: false }, { url: 'https://example.com/x.mp4' })

    const res = await svc.app.request('/ingest/v1/sources', { headers: { 'x-api-key': svc.live } })
    assert.is(res.status, 200)
    const ids = ((await res.json()) as { data: { id: string }[] }).data.map((s) => s.id)
    assert.is(ids.length, 450)
    assert.equal([...ids].sort(), [...made].sort(), 'each source exactly once')
  } finally {
    await svc.close()
  }
})

test.run()
