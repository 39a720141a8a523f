import { fakeServer, type Recorded, type Scripted } from '../fake-vendors.js'
import { openaiAnswers, openaiError, openaiGate } from './openai-common.js'
import { spokenAudio } from './speech-audio.js'

// OpenAI's Speech API as it answers: `POST /v1/audio/speech` with a JSON body → the audio bytes themselves
// (`audio/mpeg` or `audio/wav`, chunked); errors are `{error: {message, type, param, code}}`.

const MIME: Record<string, string> = { mp3: 'audio/mpeg', wav: 'audio/wav' }
const VOICES = ['alloy', 'ash', 'ballad', 'cedar', 'coral', 'echo', 'fable', 'marin', 'nova', 'onyx', 'sage', 'shimmer', 'verse']

/** Scripted answers for `fake.push(...)`: the failures the client must handle. */
export const speechAnswers = {
  ...openaiAnswers('tts-1'),
  slow: (ms: number): Scripted => ({ status: 200, raw: Buffer.alloc(16), headers: { 'content-type': 'audio/mpeg' }, delayMs: ms }),
}

/**
 * A fake `POST /v1/audio/speech` on 127.0.0.1: checks the Bearer key (401 `invalid_api_key`, the key masked as
 * OpenAI masks it) and the body as OpenAI validates it (400 naming the parameter), then answers real speech of
 * `input` (espeak-ng, padded: see speech-audio.ts). Requests are recorded; `push` scripts the next answers.
 */
export async function fakeOpenAISpeech(opts: { apiKey?: string } = {}) {
  const key = opts.apiKey ?? 'sk-test'
  return fakeServer(async (req: Recorded) => {
    const refused = openaiGate(req, '/v1/audio/speech', key)
    if (refused) return refused
    const b = req.json
    if (!['tts-1', 'tts-1-hd', 'gpt-4o-mini-tts'].includes(b?.model))
      return openaiError(400, `Invalid model: ${b?.model}`, 'invalid_request_error', null, 'model')
    if (typeof b.input !== 'string' || !b.input)
      return openaiError(400, "Invalid 'input': string too short.", 'invalid_request_error', 'string_below_min_length', 'input')
    if (b.input.length > 4096) return openaiError(400, "Invalid 'input': string too long.", 'invalid_request_error', 'string_above_max_length', 'input')
    if (!VOICES.includes(b.voice)) return openaiError(400, `Invalid value for 'voice': ${b.voice}.`, 'invalid_request_error', 'invalid_value', 'voice')
    if (!(b.response_format in MIME))
      return openaiError(400, `Invalid 'response_format': ${b.response_format}.`, 'invalid_request_error', 'invalid_value', 'response_format')
    if (b.speed !== undefined && !(b.speed >= 0.25 && b.speed <= 4))
      return openaiError(400, "Invalid 'speed'.", 'invalid_request_error', 'invalid_value', 'speed')
    return { status: 200, raw: await spokenAudio(b.input, b.response_format), headers: { 'content-type': MIME[b.response_format]! } }
  })
}
