import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { TranscriptionRequest } from '../../core/index.js'
import { speak } from '../../plugins/lib/audio/speech.js'
import { wordTokens } from '../../plugins/lib/audio/timed-words.js'
import { openaiTranscriptionProvider } from '../../plugins/providers/ai/openai-transcription.js'
import { espeakWordTimes } from '../../plugins/lib/audio/espeak-words.js'
import { fakeOpenAITranscription, formOf, transcriptionAnswers } from '../helpers/fakes/openai-transcription.js'
import { tempDir } from '../helpers/media.js'
import { silentVideo, videoWithSound } from '../helpers/transcription.js'
import { rejectsWith } from '../helpers/rejects.js'

const workDir = tempDir('ai-transcription-')
const ctx = { signal: new AbortController().signal, workDir }
const TEXT = 'The tide comes in at dawn. Gulls circle, calling, over the harbour wall.'
const speech = await speak(TEXT)
const truth = { text: TEXT, words: await espeakWordTimes(TEXT, speech.voice, speech.rate) }
const req = (extra: Partial<TranscriptionRequest> = {}): TranscriptionRequest => ({ path: speech.path, model: 'whisper-1', ...extra })

const fails = (p: Promise<unknown>, pattern: RegExp, code = 'E_PROVIDER_FAILED') => rejectsWith(p, code, pattern)

const openai = suite('openai transcription (POST /v1/audio/transcriptions)')
openai('a wav goes as it is; the form is exactly OpenAI’s; Whisper’s words get their punctuation back', async () => {
  const fake = await fakeOpenAITranscription({ speech: truth })
  const out = await openaiTranscriptionProvider({ apiKey: 'sk-test', baseUrl: fake.url }).run(req(), ctx)
  const r = fake.requests[0]!
  assert.is(r.headers.authorization, 'Bearer sk-test')
  assert.match(String(r.headers['content-type']), /^multipart\/form-data; boundary=/)
  const form = await formOf(r)
  assert.equal(
    form.map(([name, v]) => [name, typeof v === 'string' ? v : [v.filename, v.type]]),
    [
      ['file', ['audio.wav', 'audio/wav']],
      ['model', 'whisper-1'],
      ['response_format', 'verbose_json'],
      ['timestamp_granularities[]', 'word'],
    ],
  )
  assert.is(out.text, TEXT)
  assert.is(out.language, 'english')
  assert.equal(out.words, truth.words, 'the times as answered, "dawn." and "circle," as written')
  await fake.close()
})
openai('a video is reduced to mono 16 kHz mp3 sound; language as ISO-639-1; a silent video costs no request', async () => {
  const fake = await fakeOpenAITranscription({ speech: truth })
  const video = await videoWithSound(speech.path, join(workDir, 'talk.mp4'))
  const p = openaiTranscriptionProvider({ apiKey: 'sk-test', baseUrl: `${fake.url}/v1/` })
  const out = await p.run(req({ path: video, language: 'en-GB' }), ctx)
  const form = await formOf(fake.requests[0]!)
  assert.equal(
    form.map(([name, v]) => [name, typeof v === 'string' ? v : v.filename]),
    [
      ['file', 'audio.mp3'],
      ['model', 'whisper-1'],
      ['response_format', 'verbose_json'],
      ['timestamp_granularities[]', 'word'],
      ['language', 'en'],
    ],
  )
  const upload = fake.uploads[0]!
  assert.equal(
    upload.streams.map((s) => [s.type, s.codec, s.channels, s.sampleRate]),
    [['audio', 'mp3', 1, 16000]],
  )
  assert.ok(Math.abs(upload.duration! - speech.duration) < 0.2, `${upload.duration} vs ${speech.duration}`)
  assert.is(out.words.length, truth.words.length)
  assert.equal(await p.run(req({ path: await silentVideo(join(workDir, 'silent.mp4')) }), ctx), { text: '', words: [] })
  assert.is(fake.requests.length, 1)
  await fake.close()
})
openai('gpt-4o-transcribe: json only (it refuses verbose_json), word times estimated close to the truth', async () => {
  const fake = await fakeOpenAITranscription({ speech: truth })
  const out = await openaiTranscriptionProvider({ apiKey: 'sk-test', baseUrl: fake.url }).run(req({ model: 'gpt-4o-transcribe' }), ctx)
  const form = await formOf(fake.requests[0]!)
  assert.equal(form.slice(1), [
    ['model', 'gpt-4o-transcribe'],
    ['response_format', 'json'],
  ])
  assert.equal(
    out.words.map((w) => w.text),
    wordTokens(TEXT).map((t) => t.text),
  )
  const worst = Math.max(...out.words.map((w, i) => Math.abs(w.start - truth.words[i]!.start)))
  assert.ok(worst < 0.35, `worst start error ${worst}`)
  await fake.close()
})
openai('errors: 401 never echoes the key; 429 waits retry-after; 5xx retried; 413 and our own size check; time-out', async () => {
  const fake = await fakeOpenAITranscription({ speech: truth, apiKey: 'sk-right', maxBytes: 400_000 })
  const key = 'sk-proj-SECRETSECRET1234'
  const e = await fails(openaiTranscriptionProvider({ apiKey: key, baseUrl: fake.url }).run(req(), ctx), /OpenAI key was refused \(HTTP 401\)/)
  assert.not.match(JSON.stringify([e.message, e.data]), /SECRET|1234/)
  const p = openaiTranscriptionProvider({ apiKey: 'sk-right', baseUrl: fake.url, retries: 2 })
  fake.push(transcriptionAnswers.rateLimited('1'), transcriptionAnswers.serverError())
  const t0 = Date.now()
  assert.is((await p.run(req(), ctx)).text, TEXT)
  assert.ok(Date.now() - t0 >= 950, 'retry-after: 1 was honoured')
  fake.push(transcriptionAnswers.serverError(), transcriptionAnswers.serverError(), transcriptionAnswers.serverError())
  assert.is((await fails(p.run(req(), ctx), /HTTP 500/)).data?.retryable, true)
  fake.push(transcriptionAnswers.rateLimited('60'))
  await fails(p.run(req(), ctx), /rate limited by the provider \(HTTP 429\)/)
  const long = await speak(`${TEXT} ${TEXT} ${TEXT} ${TEXT}`)
  assert.is((await fails(p.run(req({ path: long.path }), ctx), /too large for the provider \(HTTP 413/)).data?.tooLarge, true)
  const before = fake.requests.length
  await fails(openaiTranscriptionProvider({ apiKey: 'sk-right', baseUrl: fake.url, maxUploadBytes: 1000 }).run(req(), ctx), /over the 0\.0 MB upload limit/)
  assert.is(fake.requests.length, before, 'nothing sent')
  fake.push(transcriptionAnswers.slow(2000))
  await fails(
    openaiTranscriptionProvider({ apiKey: 'sk-right', baseUrl: fake.url, timeoutMs: 300, retries: 0 }).run(req(), ctx),
    /no answer/,
    'E_PROVIDER_TIMEOUT',
  )
  await fake.close()
})
openai('a content refusal (HTTP 400 content_policy_violation) is a moderation refusal, not retried', async () => {
  const fake = await fakeOpenAITranscription({ speech: truth })
  fake.push(transcriptionAnswers.policyViolation())
  const e = await fails(
    openaiTranscriptionProvider({ apiKey: 'sk-test', baseUrl: fake.url, retries: 2 }).run(req(), ctx),
    /content moderation \(.*safety system/,
  )
  assert.is(e.data?.moderated, true, 'moderated: the job says the content policy refused it (422 where one is answered)')
  assert.is(fake.requests.length, 1, 'a refusal is final')
  await fake.close()
})
openai.run()
