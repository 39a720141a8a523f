import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { probe, RenderError, type SpeechResult } from '../../core/index.js'
import { silences } from '../../plugins/lib/audio/silences.js'
import { estimateWords, wordTokens } from '../../plugins/lib/audio/timed-words.js'
import { espeakSpeechProvider } from '../../plugins/providers/ai/espeak-speech.js'

const workDir = mkdtempSync(join(tmpdir(), 'ai-speech-'))
const ctx = { signal: new AbortController().signal, workDir }
const speak = (text: string, extra: object = {}) => espeakSpeechProvider.run({ text, model: 'espeak-ng', format: 'wav', ...extra }, ctx)

/** Words as the text has them, in order, each inside the audio and after the one before. */
function wellFormed(r: SpeechResult, text: string) {
  assert.equal(
    r.words.map((w) => w.text),
    text.split(/\s+/).filter(Boolean),
  )
  let last = 0
  for (const w of r.words) {
    assert.ok(w.start >= last && w.end > w.start && w.end <= r.duration + 1e-3, `${w.text} [${w.start}, ${w.end}] after ${last}, within ${r.duration}`)
    last = w.end
  }
}

const espeak = suite('espeak-ng speech (local)')
espeak('a local engine for the speech task', () => {
  assert.is(espeakSpeechProvider.task, 'speech')
  assert.is(espeakSpeechProvider.local, true)
  assert.equal(espeakSpeechProvider.models, ['espeak-ng'])
})
espeak('wav and mp3 decode, last what they say, and time every word of the text', async () => {
  const text = 'The lighthouse stands alone, facing the storm. At dusk the lamp turns; ships find their way home.'
  const wav = await speak(text)
  const mp3 = await speak(text, { format: 'mp3' })
  for (const [r, codec, mime] of [
    [wav, 'pcm_s16le', 'audio/wav'],
    [mp3, 'mp3', 'audio/mpeg'],
  ] as const) {
    assert.is(dirname(r.path), workDir)
    assert.is(r.mime, mime)
    const info = await probe(r.path)
    assert.is(info.streams[0]!.codec, codec)
    assert.ok(Math.abs(info.duration! - r.duration) < 0.01, `${r.duration} is the file's ${info.duration}`)
    wellFormed(r, text)
  }
  // The mp3 is the same speech: same word times, a few ms of encoder padding at most.
  assert.equal(mp3.words, wav.words)
  assert.ok(Math.abs(mp3.duration - wav.duration) < 0.1)
})
espeak('a weak word espeak voices with the next ("the dashboard") still gets its share of the time', async () => {
  const r = await speak('Hello from the dashboard')
  assert.equal(
    r.words.map((w) => w.text),
    ['Hello', 'from', 'the', 'dashboard'],
  )
  for (const w of r.words) assert.ok(w.end - w.start > 0.05, JSON.stringify(r.words))
})
espeak('word times match the audio: each pause between words is a silence in the file', async () => {
  for (const format of ['wav', 'mp3'] as const) {
    const r = await speak('One. Two. Three.', { format })
    const quiet = (await silences(r.path, { noiseDb: -40, minSeconds: 0.08 })).filter((s) => s.end < r.words.at(-1)!.end)
    assert.is(quiet.length, 2, 'one silence after each of the first two words')
    quiet.forEach((s, i) => {
      // Measured over 94 pauses (4 texts, 4 speeds, wav and mp3): starts within 2 ms of the silence's end;
      // ends at most 78 ms before the level falls under -40 dB (the vowel's fade-out belongs to the pause).
      assert.ok(Math.abs(r.words[i + 1]!.start - s.end) < 0.02, `${r.words[i + 1]!.text} starts at ${r.words[i + 1]!.start}, silence ends at ${s.end}`)
      assert.ok(s.start - r.words[i]!.end > -0.02 && s.start - r.words[i]!.end < 0.09, `${r.words[i]!.text} ends at ${r.words[i]!.end}, silence at ${s.start}`)
    })
  }
})
espeak('numbers and symbols stay one written word; speed sets the pace; voices map by gender', async () => {
  const text = 'It costs $4.50 in 2023 — really.'
  const r = await speak(text)
  assert.equal(
    r.words.map((w) => w.text),
    ['It', 'costs', '$4.50', 'in', '2023', 'really.'],
  )
  const [it, , price] = r.words
  assert.ok(price!.end - price!.start > 3 * (it!.end - it!.start), '"$4.50" is said as several words')
  const fast = await speak(text, { speed: 1.5 })
  const slow = await speak(text, { speed: 0.75 })
  assert.ok(fast.duration < r.duration * 0.8 && slow.duration > r.duration * 1.2, `${fast.duration} < ${r.duration} < ${slow.duration}`)
  const male = await speak('Hello there.', { voice: 'onyx' })
  const female = await speak('Hello there.', { voice: 'nova' })
  const polly = await speak('Hello there.', { voice: 'Joanna' })
  assert.is.not(male.path, female.path)
  assert.equal(female.words, polly.words, 'nova and Joanna are the same espeak voice')
})
espeak('without python3 the voice still works and its word times are estimated', async () => {
  const before = process.env.REELFORGE_PYTHON
  process.env.REELFORGE_PYTHON = '/nonexistent/python3'
  try {
    const text = 'One. Two. Three. Four five six.'
    const r = await speak(text)
    wellFormed(r, text)
  } finally {
    if (before === undefined) delete process.env.REELFORGE_PYTHON
    else process.env.REELFORGE_PYTHON = before
  }
})
espeak('no text is a clear failure', async () => {
  try {
    await speak('  ')
    assert.unreachable()
  } catch (e) {
    assert.instance(e, RenderError)
    assert.match((e as Error).message, /no text to speak/)
  }
})
espeak.after(() => rmSync(workDir, { recursive: true, force: true }))
espeak.run()

const words = suite('word helpers')
words('words are the runs with a letter or digit, counted in code points', () => {
  assert.equal(wordTokens('  Café 🎬 — 12%, ok '), [
    { text: 'Café', from: 2, to: 6 },
    { text: '12%,', from: 11, to: 15 },
    { text: 'ok', from: 16, to: 18 },
  ])
})
words('the estimate fills the span in order, snapping punctuated words to pauses', () => {
  const est = estimateWords('One, two three. Four.', 1, 5, [{ start: 3.2, end: 3.6 }])
  assert.equal(
    est.map((w) => w.text),
    ['One,', 'two', 'three.', 'Four.'],
  )
  assert.is(est[0]!.start, 1)
  assert.is(est[2]!.end, 3.2, '"three." ends where the pause starts')
  assert.is(est[3]!.start, 3.6)
  assert.is(est[3]!.end, 5)
})
words.run()
