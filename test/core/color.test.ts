import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { cssColor, parseColorBytes } from '../../core/index.js'

test("hex forms, including Shotstack's alpha-first #AARRGGBB", () => {
  assert.equal(parseColorBytes('#ff0000'), [255, 0, 0, 255])
  assert.equal(parseColorBytes('#f00'), [255, 0, 0, 255])
  assert.equal(parseColorBytes('#80ffffff'), [255, 255, 255, 128])
  assert.equal(parseColorBytes('#00000000'), [0, 0, 0, 0])
})

test('names, transparent, rgb() and rgba()', () => {
  assert.equal(parseColorBytes('White'), [255, 255, 255, 255])
  assert.equal(parseColorBytes('transparent'), [0, 0, 0, 0])
  assert.equal(parseColorBytes('rgba(10, 20, 30, 0.5)'), [10, 20, 30, 128])
  assert.is(cssColor('#80ff0000'), 'rgba(255, 0, 0, 0.502)')
})

test.run()
