import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { testService, titleEdit } from '../../helpers/service.js'

// An Idempotency-Key names one request, and a client's retry may serialise it again differently (another
// JSON library, a map with another key order). As Stripe does, the parsed request is compared: object key
// order, whitespace and number spelling do not matter; any difference in a value or in an array's order does.

/** The same JSON value with every object's keys in reverse order. */
const reversed = (v: unknown): unknown => {
  if (Array.isArray(v)) return v.map(reversed)
  if (!v || typeof v !== 'object') return v
  return Object.fromEntries(
    Object.entries(v)
      .map(([k, x]) => [k, reversed(x)])
      .reverse(),
  )
}
const json = { 'content-type': 'application/json' }

test('a retry of the same request re-serialised replays the first answer and holds credits once', async () => {
  const svc = await testService({ credits: 100 })
  try {
    const headers = { ...json, 'idempotency-key': 'same-edit' }
    const first = await svc.call('POST', '/v1/render', { raw: JSON.stringify(titleEdit(1)), headers })
    assert.is(first.status, 201)
    // Keys reversed, indented, and `1.0` / `25.0` / `1e0` where the first said 1, 25 and 0.
    const again = JSON.stringify(reversed(titleEdit(1)), null, 2)
      .replace('"length": 1', '"length": 1.0')
      .replace('"fps": 25', '"fps": 25.0')
      .replace('"start": 0', '"start": 0e0')
    assert.is.not(again, JSON.stringify(titleEdit(1)))
    const retry = await svc.call('POST', '/v1/render', { raw: `\n ${again} \n`, headers })
    assert.is(retry.status, 201, JSON.stringify(retry.body))
    assert.equal(retry.body, first.body)
    assert.is(retry.headers.get('idempotent-replayed'), 'true')
    assert.is((await svc.call('GET', '/v1/wallet')).body.held, 1, 'held once')
  } finally {
    await svc.close()
  }
})

test('a different value or a different array order under the same key is still 422', async () => {
  const svc = await testService({ credits: 100 })
  try {
    const headers = { ...json, 'idempotency-key': 'two-tracks' }
    const track = (text: string) => ({ clips: [{ asset: { type: 'title', text }, start: 0, length: 1 }] })
    const edit = (texts: string[]) => ({ ...titleEdit(1), timeline: { tracks: texts.map(track) } })
    assert.is((await svc.call('POST', '/v1/render', { raw: JSON.stringify(edit(['a', 'b'])), headers })).status, 201)
    for (const other of [edit(['b', 'a']), edit(['a', 'c']), { ...edit(['a', 'b']), callback: 'https://example.com/hook' }]) {
      const res = await svc.call('POST', '/v1/render', { raw: JSON.stringify(other), headers })
      assert.is(res.status, 422, JSON.stringify(other))
      assert.is(res.body.error.code, 'E_IDEMPOTENCY_MISMATCH')
    }
  } finally {
    await svc.close()
  }
})

test.run()
