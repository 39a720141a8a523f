import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { probe, type SpeechRequest } from '../../core/index.js'
import { openaiSpeechProvider } from '../../plugins/providers/ai/openai-speech.js'
import { fakeOpenAISpeech, speechAnswers } from '../helpers/fakes/openai-speech.js'
import { spokenWords } from '../helpers/fakes/speech-audio.js'
import { rejectsWith } from '../helpers/rejects.js'

const workDir = mkdtempSync(join(tmpdir(), 'ai-speech-openai-'))
const ctx = { signal: new AbortController().signal, workDir }
const TEXT = 'The lighthouse stands alone, facing the storm. Waves break on the rocks below; the keeper climbs the stairs. At dusk, the lamp turns.'
const req = (extra: Partial<SpeechRequest> = {}): SpeechRequest => ({ text: TEXT, model: 'tts-1', format: 'mp3', ...extra })

const fails = (p: Promise<unknown>, pattern: RegExp, code = 'E_PROVIDER_FAILED') => rejectsWith(p, code, pattern)

const openai = suite('openai speech (POST /v1/audio/speech)')
openai('request as OpenAI expects it; the audio decodes; word times are a close estimate', async () => {
  const fake = await fakeOpenAISpeech()
  const p = openaiSpeechProvider({ apiKey: 'sk-test', baseUrl: fake.url })
  assert.equal(p.models, ['tts-1', 'tts-1-hd', 'gpt-4o-mini-tts'])
  const out = await p.run(req({ speed: 1.25 }), ctx)
  const r = fake.requests[0]!
  assert.is(r.method, 'POST')
  assert.is(r.path, '/v1/audio/speech')
  assert.is(r.headers.authorization, 'Bearer sk-test')
  assert.match(String(r.headers['content-type']), /application\/json/)
  assert.equal(r.json, { model: 'tts-1', input: TEXT, voice: 'alloy', response_format: 'mp3', speed: 1.25 })
  assert.is(out.mime, 'audio/mpeg')
  const info = await probe(out.path)
  assert.is(info.streams[0]!.codec, 'mp3')
  assert.ok(Math.abs(info.duration! - out.duration) < 0.01)
  // OpenAI gives no times: against the exact times of the speech the fake answered, the estimate (padding
  // trimmed, anchored at pauses) is off by 228 ms at most here, 119 ms on average.
  const truth = await spokenWords(TEXT)
  assert.equal(
    out.words.map((w) => w.text),
    truth.map((w) => w.text),
  )
  const errors = out.words.map((w, i) => Math.max(Math.abs(w.start - truth[i]!.start), Math.abs(w.end - truth[i]!.end)))
  assert.ok(Math.max(...errors) < 0.3, `worst ${Math.max(...errors)}`)
  assert.ok(out.words[0]!.start > 0.2, 'the leading silence is not speech')
  await fake.close()
})
openai('voices: Polly names by gender, others as given; wav; an align hook replaces the estimate; /v1 base URL', async () => {
  const fake = await fakeOpenAISpeech()
  const aligned = [{ text: 'Hello.', start: 0.25, end: 0.7 }]
  const p = openaiSpeechProvider({
    apiKey: 'sk-test',
    baseUrl: `${fake.url}/v1/`,
    model: 'gpt-4o-mini-tts',
    align: async (a) => (a.text === 'Hello.' ? aligned : []),
  })
  const out = await p.run(req({ text: 'Hello.', voice: 'Matthew', format: 'wav' }), ctx)
  assert.is(out.mime, 'audio/wav')
  assert.is((await probe(out.path)).streams[0]!.codec, 'pcm_s16le')
  assert.equal(out.words, aligned)
  await p.run(req({ text: 'Hello.', voice: 'Joanna' }), ctx)
  await p.run(req({ text: 'Hello.', voice: 'marin' }), ctx)
  assert.equal(
    fake.requests.map((r) => [r.path, r.json.model, r.json.voice]),
    [
      ['/v1/audio/speech', 'gpt-4o-mini-tts', 'onyx'],
      ['/v1/audio/speech', 'gpt-4o-mini-tts', 'nova'],
      ['/v1/audio/speech', 'gpt-4o-mini-tts', 'marin'],
    ],
  )
  await fake.close()
})
openai('401 never echoes the key; a refusal is moderated; an invalid voice names it', async () => {
  const fake = await fakeOpenAISpeech()
  const e = await fails(
    openaiSpeechProvider({ apiKey: 'sk-wrong-secret', baseUrl: fake.url }).run(req(), ctx),
    /openai: the OpenAI key was refused \(HTTP 401\)/,
  )
  assert.not.match(e.message, /sk-wrong|cret/)
  assert.is(e.data?.retryable, false)
  const p = openaiSpeechProvider({ apiKey: 'sk-test', baseUrl: fake.url })
  fake.push(speechAnswers.policyViolation())
  assert.is((await fails(p.run(req(), ctx), /content moderation/)).data?.moderated, true)
  await fails(p.run(req({ voice: 'robot' }), ctx), /Invalid value for 'voice': robot\. \(HTTP 400\)/)
  await fake.close()
})
openai('429 with retry-after is honoured, a 500 retried; a retry-after beyond the limit fails at once; time-out', async () => {
  const fake = await fakeOpenAISpeech()
  const p = openaiSpeechProvider({ apiKey: 'sk-test', baseUrl: fake.url })
  fake.push(speechAnswers.rateLimited('0.3'), speechAnswers.serverError())
  const t = performance.now()
  const out = await p.run(req({ text: 'One. Two.' }), ctx)
  assert.is(fake.requests.length, 3)
  assert.ok(performance.now() - t >= 300, 'waited for retry-after')
  assert.is(out.words.length, 2)
  fake.push(speechAnswers.rateLimited('120'))
  await fails(p.run(req(), ctx), /rate limited by the provider \(HTTP 429\)/)
  fake.push(speechAnswers.slow(1500))
  await fails(
    openaiSpeechProvider({ apiKey: 'sk-test', baseUrl: fake.url, timeoutMs: 200, retries: 0 }).run(req(), ctx),
    /no answer within 200 ms/,
    'E_PROVIDER_TIMEOUT',
  )
  await fake.close()
})
openai.after(() => rmSync(workDir, { recursive: true, force: true }))
openai.run()
