import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { timeOrderedId, uuidv7 } from '../../service/lib/ids.js'

const ids = suite('time-ordered ids')
ids('uuidv7: RFC 9562 layout (version 7, variant 10), the millisecond in front, unique', () => {
  const t = Date.UTC(2026, 10, 21, 12, 0, 0, 123)
  const id = uuidv7(t)
  assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  assert.is(parseInt(id.slice(0, 8) + id.slice(9, 13), 16), t)
  const many = new Set(Array.from({ length: 10_000 }, () => uuidv7(t)))
  assert.is(many.size, 10_000, 'random after the millisecond')
})

ids('later ids sort after earlier ones (B-tree inserts go to the right edge)', () => {
  const t = Date.now()
  const made = Array.from({ length: 200 }, (_, i) => [uuidv7(t + i), timeOrderedId('msg_', t + i)] as const)
  for (let i = 1; i < made.length; i++) {
    assert.ok(made[i]![0] > made[i - 1]![0], `uuid ${i}`)
    assert.ok(made[i]![1] > made[i - 1]![1], `message id ${i}`)
  }
  assert.match(made[0]![1], /^msg_[0-9a-f]{24}$/)
})
ids.run()
