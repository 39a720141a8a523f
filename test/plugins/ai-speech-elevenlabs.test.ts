import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { probe, type SpeechRequest } from '../../core/index.js'
import { silences } from '../../plugins/lib/audio/silences.js'
import { elevenlabsSpeechProvider } from '../../plugins/providers/ai/elevenlabs-speech.js'
import { elevenAnswers, elevenError, fakeElevenLabs, VOICE_ID } from '../helpers/fakes/elevenlabs.js'
import { spokenWords } from '../helpers/fakes/speech-audio.js'
import { rejectsWith } from '../helpers/rejects.js'

const workDir = mkdtempSync(join(tmpdir(), 'ai-speech-eleven-'))
const ctx = { signal: new AbortController().signal, workDir }
const TEXT = 'One. Two, three — 42 times!'
const req = (extra: Partial<SpeechRequest> = {}): SpeechRequest => ({ text: TEXT, model: 'eleven_multilingual_v2', format: 'mp3', ...extra })

const fails = (p: Promise<unknown>, pattern: RegExp, code = 'E_PROVIDER_FAILED') => rejectsWith(p, code, pattern)

const eleven = suite('elevenlabs speech (POST /v1/text-to-speech/{voice_id}/with-timestamps)')
eleven('request as ElevenLabs expects it; words rebuilt from the character alignment; they match the audio', async () => {
  const fake = await fakeElevenLabs()
  const p = elevenlabsSpeechProvider({ apiKey: 'xi-test', baseUrl: fake.url })
  const out = await p.run(req({ speed: 1.5 }), ctx)
  const r = fake.requests[0]!
  assert.is(r.method, 'POST')
  assert.is(r.path, `/v1/text-to-speech/${VOICE_ID}/with-timestamps?output_format=mp3_44100_128`)
  assert.is(r.headers['xi-api-key'], 'xi-test')
  assert.is(r.headers.authorization, undefined)
  assert.match(String(r.headers['content-type']), /application\/json/)
  assert.equal(r.json, { text: TEXT, model_id: 'eleven_multilingual_v2', voice_settings: { speed: 1.2 } })
  assert.is(out.mime, 'audio/mpeg')
  const info = await probe(out.path)
  assert.equal([info.streams[0]!.codec, info.streams[0]!.sampleRate], ['mp3', 44100])
  assert.ok(Math.abs(info.duration! - out.duration) < 0.01)
  // The first character's start and the last one's end of each word, as the fake spread them.
  const truth = await spokenWords(TEXT)
  assert.equal(
    out.words.map((w) => w.text),
    ['One.', 'Two,', 'three', '42', 'times!'],
  )
  out.words.forEach((w, i) => assert.ok(Math.abs(w.start - truth[i]!.start) < 0.002 && Math.abs(w.end - truth[i]!.end) < 0.002, `${w.text}`))
  const quiet = (await silences(out.path, { noiseDb: -40, minSeconds: 0.08 })).filter((s) => s.start > 0.3 && s.end < out.words.at(-1)!.end)
  assert.ok(Math.abs(quiet[0]!.end - out.words[1]!.start) < 0.02, '"Two," starts as the pause after "One." ends')
  await fake.close()
})
eleven('voices: configured names, raw ids, else the default; wav', async () => {
  const fake = await fakeElevenLabs()
  const p = elevenlabsSpeechProvider({ apiKey: 'xi-test', baseUrl: fake.url, voices: { Joanna: VOICE_ID }, defaultVoiceId: 'AAAAAAAAAAAAAAAAAAAA' })
  const out = await p.run(req({ voice: 'Joanna', format: 'wav', text: 'Hello there.' }), ctx)
  assert.is(out.mime, 'audio/wav')
  assert.equal(
    (await probe(out.path)).streams.map((s) => [s.codec, s.sampleRate]),
    [['pcm_s16le', 24000]],
  )
  assert.is(out.words.length, 2)
  await p.run(req({ voice: VOICE_ID }), ctx)
  await fails(p.run(req({ voice: 'Matthew' }), ctx), /A voice with the voice_id AAAAAAAAAAAAAAAAAAAA was not found\. \(voice_not_found\) \(HTTP 404\)/)
  assert.equal(
    fake.requests.map((r) => r.path),
    [
      `/v1/text-to-speech/${VOICE_ID}/with-timestamps?output_format=wav_24000`,
      `/v1/text-to-speech/${VOICE_ID}/with-timestamps?output_format=mp3_44100_128`,
      '/v1/text-to-speech/AAAAAAAAAAAAAAAAAAAA/with-timestamps?output_format=mp3_44100_128',
    ],
  )
  assert.not.ok('voice_settings' in fake.requests[0]!.json, 'no speed, no voice_settings')
  await fake.close()
})
eleven('a refused key, an empty quota and a refusal are clear; the key is never echoed', async () => {
  const fake = await fakeElevenLabs()
  const e = await fails(
    elevenlabsSpeechProvider({ apiKey: 'xi-wrong-secret', baseUrl: fake.url }).run(req(), ctx),
    /the ElevenLabs key was refused \(HTTP 401\)/,
  )
  assert.not.match(e.message, /wrong-secret/)
  const p = elevenlabsSpeechProvider({ apiKey: 'xi-test', baseUrl: fake.url })
  fake.push(elevenAnswers.quota())
  await fails(p.run(req(), ctx), /no credit left \(HTTP 401\)/)
  fake.push(elevenAnswers.refused())
  assert.is((await fails(p.run(req(), ctx), /content moderation \(Your prompt appears to have violated/)).data?.moderated, true)
  fake.push(elevenError(400, 'invalid_request', 'Key xi-test is not allowed to use this voice'))
  const echoed = await fails(p.run(req(), ctx), /Key \*\*\* is not allowed/)
  assert.not.match(echoed.message, /xi-test/)
  await fake.close()
})
eleven('429 (concurrency) honours retry-after, system_busy and a 500 are retried; time-out', async () => {
  const fake = await fakeElevenLabs()
  const p = elevenlabsSpeechProvider({ apiKey: 'xi-test', baseUrl: fake.url })
  fake.push(elevenAnswers.concurrency('0.3'), elevenAnswers.serverError())
  const t = performance.now()
  await p.run(req({ text: 'One two.' }), ctx)
  assert.is(fake.requests.length, 3)
  assert.ok(performance.now() - t >= 300, 'waited for retry-after')
  fake.push(elevenAnswers.systemBusy())
  assert.is((await p.run(req({ text: 'One two.' }), ctx)).words.length, 2)
  fake.push(elevenAnswers.concurrency('120'))
  await fails(p.run(req(), ctx), /rate limited by the provider \(HTTP 429\)/)
  fake.push({ status: 200, json: {}, delayMs: 1500 })
  await fails(
    elevenlabsSpeechProvider({ apiKey: 'xi-test', baseUrl: fake.url, timeoutMs: 200, retries: 0 }).run(req(), ctx),
    /no answer within 200 ms/,
    'E_PROVIDER_TIMEOUT',
  )
  await fake.close()
})
eleven.after(() => rmSync(workDir, { recursive: true, force: true }))
eleven.run()
