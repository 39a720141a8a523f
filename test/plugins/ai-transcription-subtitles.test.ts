import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { TimedWord } from '../../core/index.js'
import { cuesFromWords, toSrt, toVtt } from '../../plugins/lib/text/subtitle-writer.js'
import { parseSubtitles } from '../../plugins/lib/text/subtitles.js'

// The SRT and WebVTT files of a transcription job must read back through the parser captions use.
const writer = suite('subtitle writer: words → SRT / WebVTT')
// 30 words: a 0.8 s pause after "harbour", a sentence end after "wall.", a long run with no pause, and long words.
const WORDS: TimedWord[] =
  'The tide comes in at dawn and the gulls circle over the harbour wall. Then everything goes quiet while the extraordinarily unhurried fishermen untangle their nets slowly beside overturned boats'
    .split(' ')
    .map((text, i) => ({ text, start: i * 0.42 + (i > 12 ? 0.8 : 0), end: i * 0.42 + 0.38 + (i > 12 ? 0.8 : 0) }))
for (const [name, write] of [
  ['SRT', toSrt],
  ['WebVTT', toVtt],
] as const)
  writer(`${name}: parses back to the same words and times; cues are readable`, () => {
    const text = write(WORDS)
    if (name === 'WebVTT') assert.ok(text.startsWith('WEBVTT\n\n'))
    else assert.match(text, /^1\n00:00:00,000 --> /)
    const cues = parseSubtitles(text)
    const expected = cuesFromWords(WORDS)
    assert.is(cues.length, expected.length)
    assert.equal(
      cues.flatMap((c) => c.text.split(/\s+/)),
      WORDS.map((w) => w.text),
    )
    for (const [i, c] of cues.entries()) {
      assert.ok(Math.abs(c.start - expected[i]!.words[0]!.start) < 0.0006 && Math.abs(c.end - expected[i]!.words.at(-1)!.end) < 0.0006, `cue ${i} times`)
      const lines = c.text.split('\n')
      assert.ok(lines.length <= 2 && lines.every((l) => l.length <= 42), `cue ${i}: ${JSON.stringify(lines)}`)
      assert.ok(c.end - c.start <= 5, `cue ${i} lasts ${c.end - c.start}`)
    }
    assert.ok(cues.some((c) => c.text.endsWith('harbour')) && cues.some((c) => c.text.endsWith('wall.')), 'breaks at the pause and the full stop')
  })
writer('edge cases: no words; WebVTT escapes markup; a late word never makes cues overlap', () => {
  assert.is(toSrt([]), '')
  assert.is(toVtt([]), 'WEBVTT\n')
  assert.match(toVtt([{ text: 'R&D<b>', start: 0, end: 1 }]), /R&amp;D&lt;b&gt;/)
  const cues = cuesFromWords([
    { text: 'One.', start: 0, end: 1.2 },
    { text: 'Two', start: 1.1, end: 1.5 },
  ])
  assert.equal(
    cues.map((c) => [c.start, c.end]),
    [
      [0, 1.1],
      [1.1, 1.5],
    ],
  )
})
writer.run()
