import { fakeServer, type Recorded, type Scripted } from '../fake-vendors.js'
import { spokenAudio } from './speech-audio.js'

// OpenAI's Speech API as it answers: `POST /v1/audio/speech` with a JSON body → the audio bytes themselves
// (`audio/mpeg` or `audio/wav`, chunked); errors are `{error: {message, type, param, code}}`.

const MIME: Record<string, string> = { mp3: 'audio/mpeg', wav: 'audio/wav' }
const VOICES = ['alloy', 'ash', 'ballad', 'cedar', 'coral', 'echo', 'fable', 'marin', 'nova', 'onyx', 'sage', 'shimmer', 'verse']

/** `{error: {message, type, param, code}}`, OpenAI's error body. */
export const speechError = (
  status: number,
  message: string,
  type: string,
  code: string | null,
  param: string | null = null,
  headers?: Record<string, string>,
): Scripted => ({
  status,
  json: { error: { message, type, param, code } },
  headers,
})

/** Scripted answers for `fake.push(...)`: the failures the client must handle. */
export const speechAnswers = {
  rateLimited: (retryAfterSeconds: string) =>
    speechError(
      429,
      'Rate limit reached for tts-1 in organization org-fake on requests per min (RPM): Limit 3, Used 3, Requested 1.',
      'requests',
      'rate_limit_exceeded',
      null,
      {
        'retry-after': retryAfterSeconds,
        'x-ratelimit-remaining-requests': '0',
      },
    ),
  serverError: () => speechError(500, 'The server had an error while processing your request. Sorry about that!', 'server_error', null),
  policyViolation: () => speechError(400, 'Your request was rejected as a result of our safety system.', 'invalid_request_error', 'content_policy_violation'),
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
    if (req.method !== 'POST' || req.path !== '/v1/audio/speech')
      return speechError(404, `Invalid URL (${req.method} ${req.path})`, 'invalid_request_error', null)
    const auth = String(req.headers.authorization ?? '')
    if (auth !== `Bearer ${key}`) {
      const given = auth.replace(/^Bearer /, '')
      return speechError(401, `Incorrect API key provided: ${given.slice(0, 3)}*****${given.slice(-4)}.`, 'invalid_request_error', 'invalid_api_key')
    }
    const b = req.json
    if (!['tts-1', 'tts-1-hd', 'gpt-4o-mini-tts'].includes(b?.model))
      return speechError(400, `Invalid model: ${b?.model}`, 'invalid_request_error', null, 'model')
    if (typeof b.input !== 'string' || !b.input)
      return speechError(400, "Invalid 'input': string too short.", 'invalid_request_error', 'string_below_min_length', 'input')
    if (b.input.length > 4096) return speechError(400, "Invalid 'input': string too long.", 'invalid_request_error', 'string_above_max_length', 'input')
    if (!VOICES.includes(b.voice)) return speechError(400, `Invalid value for 'voice': ${b.voice}.`, 'invalid_request_error', 'invalid_value', 'voice')
    if (!(b.response_format in MIME))
      return speechError(400, `Invalid 'response_format': ${b.response_format}.`, 'invalid_request_error', 'invalid_value', 'response_format')
    if (b.speed !== undefined && !(b.speed >= 0.25 && b.speed <= 4))
      return speechError(400, "Invalid 'speed'.", 'invalid_request_error', 'invalid_value', 'speed')
    return { status: 200, raw: await spokenAudio(b.input, b.response_format), headers: { 'content-type': MIME[b.response_format]! } }
  })
}
