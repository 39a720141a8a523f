import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { RenderError } from '../../core/index.js'
import { resolveTiming, type TimingInput } from '../../core/plan/timing.js'

const clip = (track: number, start: number | string, length: number | string, extra: Partial<TimingInput> = {}): TimingInput => ({
  path: `c${track}`,
  track,
  start,
  length,
  ...extra,
})

test('start "auto" follows the previous clip on the same track', () => {
  const r = resolveTiming([clip(0, 0, 2), clip(0, 'auto', 3), clip(1, 'auto', 1), clip(0, 'auto', 1)])
  assert.equal(
    r.map((x) => x.start),
    [0, 2, 0, 5],
  )
})

test('length "auto" uses the asset duration, 3 s for stills', () => {
  const r = resolveTiming([clip(0, 0, 'auto', { duration: 7.5 }), clip(1, 1, 'auto')])
  assert.equal(
    r.map((x) => x.length),
    [7.5, 3],
  )
})

test('length "end" runs to the end of the other clips', () => {
  const r = resolveTiming([clip(0, 0, 4), clip(1, 1, 'end'), clip(2, 2, 6)])
  assert.equal(r[1], { start: 1, length: 7 })
})

test('alias:// copies the start and length of the named clip', () => {
  const r = resolveTiming([clip(0, 'alias://intro', 'alias://intro'), clip(1, 2, 3, { alias: 'intro' })])
  assert.equal(r[0], { start: 2, length: 3 })
})

test('unknown aliases and cycles are errors naming the clip', () => {
  try {
    resolveTiming([clip(0, 'alias://a', 1, { alias: 'b' }), clip(1, 'alias://b', 1, { alias: 'a' }), clip(2, 'alias://zzz', 1)])
    assert.unreachable()
  } catch (e) {
    const issues = (e as RenderError).data!.issues!
    assert.ok(issues.some((i) => i.path === 'c2.start' && /no clip has alias "zzz"/.test(i.message)))
    assert.ok(issues.some((i) => i.path === 'c0.start' && /circular/.test(i.message)))
  }
})

test.run()
