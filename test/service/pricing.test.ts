import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { RESOLUTIONS, type Resolution, sizeFor } from '../../core/index.js'
import { DEFAULT_PRICING, type Pricing, renderPrice, tierOf } from '../../service/billing/pricing.js'

// Render prices are keyed by the edit schema's own resolution names, and a frame's tier comes from the sizes the
// renderer gives those names: the two can no longer drift apart.

test('each resolution at 16:9 is its own tier; sizes between tiers take the next one up', () => {
  for (const r of RESOLUTIONS) assert.is(tierOf(sizeFor(r)), r, r)
  assert.is(tierOf({ width: 1280, height: 722 }), '1080', 'a pixel row past hd')
  assert.is(tierOf({ width: 7680, height: 4320 }), '4k', 'past 4k is still 4k')
  assert.is(tierOf(sizeFor('hd', '1:1')), 'sd', 'a square hd frame has sd’s pixels')
})

test('a started minute is charged at the tier: 61 s of 1080 is two minutes', () => {
  assert.is(renderPrice(DEFAULT_PRICING, 61, sizeFor('1080')), 2 * DEFAULT_PRICING.renderPerMinute['1080'])
  assert.is(renderPrice(DEFAULT_PRICING, 0.5, sizeFor('preview')), DEFAULT_PRICING.renderPerMinute.preview)
})

test('the price table has exactly the schema’s resolutions (a compile-time check, too)', () => {
  type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
  const keysMatch: Same<keyof Pricing['renderPerMinute'], Resolution> = true
  assert.ok(keysMatch)
  assert.equal(Object.keys(DEFAULT_PRICING.renderPerMinute).sort(), [...RESOLUTIONS].sort())
})

test.run()
