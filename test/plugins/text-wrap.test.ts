import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { wrapText } from '../../plugins/lib/text/wrap.js'

// Text is wrapped for titles, text layouts and the sandbox image's prompt — on an API server's main thread for the
// last. A word longer than a line is cut by measuring its prefixes: the work must stay near-linear in the word's
// length, or one 4,000-character prompt (the limit) holds the server for a minute. Counted, not timed: every
// character handed to `measure` is one unit of work.

/** A fixed-width font (10 px a character) that counts what it is asked to measure. */
function counting() {
  let measured = 0
  const measure = (s: string) => ((measured += s.length), s.length * 10)
  return { measure, work: () => measured }
}

test('a 4,000-character word: cut into full lines, measuring each character a few dozen times at most', () => {
  const word = 'x'.repeat(4000)
  const { measure, work } = counting()
  const lines = wrapText(word, 205, measure) // 20 characters a line
  assert.is(lines.join(''), word)
  assert.ok(
    lines.every((l) => l.length === 20),
    'each line as full as it fits',
  )
  assert.ok(work() < 60 * word.length, `${work()} characters measured for ${word.length}`)
})

test('cuts are the longest prefixes that fit, as before, for words and text around them', () => {
  const { measure } = counting()
  assert.equal(wrapText('ab cdefghijklmnop qr', 55, measure), ['ab', 'cdefg', 'hijkl', 'mnop', 'qr'])
  assert.equal(wrapText('abcdefg', 5, measure), ['a', 'b', 'c', 'd', 'e', 'f', 'g'], 'nothing fits: one character a line')
  assert.equal(wrapText('one\ntwo three', 75, measure), ['one', 'two', 'three'])
})

test.run()
