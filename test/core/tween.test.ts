import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { compileTrack, cubicBezier, easing, EASING_NAMES } from '../../core/index.js'

const close = (a: number, b: number, eps = 1e-4) => assert.ok(Math.abs(a - b) < eps, `${a} ≉ ${b}`)

test('all 28 easings start at 0 and end at 1', () => {
  assert.is(EASING_NAMES.length, 29) // + linear
  for (const name of EASING_NAMES) {
    close(easing(name)(0), 0)
    close(easing(name)(1), 1)
  }
})

test('easeInOut is symmetric (0.5 at the midpoint); easeIn starts slow, easeOut fast', () => {
  close(easing('easeInOut')(0.5), 0.5)
  assert.ok(easing('easeIn')(0.25) < 0.25)
  assert.ok(easing('easeOut')(0.25) > 0.25)
  assert.ok(easing('easeInBack')(0.2) < 0, 'back easings overshoot')
})

test('cubic-bezier matches CSS reference values', () => {
  // CSS `ease` at x = 0.5 is ≈ 0.8024.
  close(cubicBezier(0.25, 0.1, 0.25, 1)(0.5), 0.8024, 1e-3)
})

test('tweens hold before, between and after their segments', () => {
  const track = compileTrack(
    [
      { from: 0, to: 1, start: 1, length: 1, interpolation: 'linear' },
      { from: 1, to: 0.5, start: 3, length: 2, interpolation: 'linear' },
    ],
    9,
  )
  assert.is(track(0), 0)
  close(track(1.5), 0.5)
  assert.is(track(2.5), 1)
  close(track(4), 0.75)
  assert.is(track(10), 0.5)
})

test('constant holds `from` through the segment; bezier eases', () => {
  const c = compileTrack([{ from: 0.2, to: 1, start: 0, length: 1, interpolation: 'constant' }], 0)
  assert.is(c(0.99), 0.2)
  assert.is(c(1), 1)
  const b = compileTrack([{ from: 0, to: 10, start: 0, length: 1, interpolation: 'bezier', easing: 'easeIn' }], 0)
  assert.ok(b(0.5) < 5)
})

test('a constant value and a missing value compile to constants', () => {
  assert.is(compileTrack(0.3, 1)(5), 0.3)
  assert.is(compileTrack(undefined, 1)(5), 1)
  assert.is(compileTrack(0.5, 1, (v) => -v)(0), -0.5)
})

test.run()
