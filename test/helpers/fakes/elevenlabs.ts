import { wordTokens } from '../../../plugins/lib/audio/timed-words.js'
import { fakeServer, type Recorded, type Scripted } from '../fake-vendors.js'
import { spokenAudio, spokenWords } from './speech-audio.js'

// ElevenLabs' text-to-speech with timestamps as it answers: `POST /v1/text-to-speech/{voice_id}/with-timestamps`
// (`xi-api-key` header, JSON `{text, model_id, voice_settings?}`, `output_format` query) → `{audio_base64,
// alignment, normalized_alignment}` with a start and end per character. Errors are `{detail: {status, message}}`,
// request validation FastAPI's `{detail: [{type, loc, msg, input}]}` (422).

export const VOICE_ID = 'JBFqnCBsd6RMkjVDRZzb'
/** Rachel, one of the premade voices every account has (Shotstack's Create API offers it by name). */
export const RACHEL_ID = '21m00Tcm4TlvDq8ikWAM'
const FORMATS: Record<string, ['mp3' | 'wav', number]> = {
  mp3_44100_128: ['mp3', 44100],
  mp3_22050_32: ['mp3', 22050],
  wav_24000: ['wav', 24000],
  wav_22050: ['wav', 22050],
  wav_44100: ['wav', 44100],
}

/** `{detail: {status, message}}`, ElevenLabs' error body. */
export const elevenError = (status: number, code: string, message: string, headers?: Record<string, string>): Scripted => ({
  status,
  json: { detail: { status: code, message } },
  headers,
})

/** Scripted answers for `fake.push(...)`: the failures the client must handle (statuses from ElevenLabs' help pages). */
export const elevenAnswers = {
  concurrency: (retryAfterSeconds: string) =>
    elevenError(
      429,
      'too_many_concurrent_requests',
      'Too many concurrent requests. Your current subscription is associated with a maximum of 2 concurrent requests.',
      {
        'retry-after': retryAfterSeconds,
      },
    ),
  systemBusy: () => elevenError(429, 'system_busy', 'Our services are experiencing high levels of traffic and your request could not be processed.'),
  serverError: () => elevenError(500, 'something_went_wrong', 'We are sorry, something went wrong. You are not charged for this request.'),
  quota: () =>
    elevenError(
      401,
      'quota_exceeded',
      'This request exceeds your quota of 10000. You have 12 credits remaining, while 48 credits are required for this request.',
    ),
  /** ElevenLabs' refusal shape (seen from its generation endpoints): HTTP 400, `bad_prompt`. */
  refused: () => elevenError(400, 'bad_prompt', 'Your prompt appears to have violated our Terms of Service. Please try again with a different prompt.'),
}

/**
 * A fake ElevenLabs on 127.0.0.1 knowing two voices (`VOICE_ID`, `RACHEL_ID`). The audio is real speech of `text` (espeak-ng,
 * padded); each word's characters share out the word's exact span (see speech-audio.ts), and a space spans the
 * gap to the next word — so words rebuilt from the alignment can be checked against the audio.
 */
export async function fakeElevenLabs(opts: { apiKey?: string } = {}) {
  const key = opts.apiKey ?? 'xi-test'
  return fakeServer(async (req: Recorded) => {
    const url = new URL(req.path, 'http://x')
    const m = /^\/v1\/text-to-speech\/([^/]+)\/with-timestamps$/.exec(url.pathname)
    if (req.method !== 'POST' || !m) return { status: 404, json: { detail: 'Not Found' } }
    if (req.headers['xi-api-key'] !== key) return elevenError(401, 'invalid_api_key', 'Invalid API key')
    if (![VOICE_ID, RACHEL_ID].includes(decodeURIComponent(m[1]!)))
      return elevenError(404, 'voice_not_found', `A voice with the voice_id ${m[1]} was not found.`)
    if (typeof req.json?.text !== 'string')
      return { status: 422, json: { detail: [{ type: 'missing', loc: ['body', 'text'], msg: 'Field required', input: req.json ?? null }] } }
    const format = FORMATS[url.searchParams.get('output_format') ?? 'mp3_44100_128']
    if (!format)
      return {
        status: 422,
        json: {
          detail: [{ type: 'enum', loc: ['query', 'output_format'], msg: 'Input should be a known format', input: url.searchParams.get('output_format') }],
        },
      }
    const text: string = req.json.text
    const chars = Array.from(text)
    const starts: number[] = chars.map(() => 0)
    const ends: number[] = chars.map(() => 0)
    const words = await spokenWords(text)
    // Characters outside words (spaces, a lone dash) span the gap between the words around them.
    const tokens = wordTokens(text)
    let k = 0
    tokens.forEach((t, i) => {
      const w = words[i]!
      const gapFrom = i ? words[i - 1]!.end : 0
      for (; k < t.from; k++) [starts[k], ends[k]] = [gapFrom, w.start]
      const each = (w.end - w.start) / (t.to - t.from)
      for (; k < t.to; k++) [starts[k], ends[k]] = [w.start + (k - t.from) * each, w.start + (k - t.from + 1) * each]
    })
    for (; k < chars.length; k++) starts[k] = ends[k] = words.at(-1)?.end ?? 0
    const r3 = (xs: number[]) => xs.map((x) => Math.round(x * 1000) / 1000)
    const alignment = { characters: chars, character_start_times_seconds: r3(starts), character_end_times_seconds: r3(ends) }
    const audio = await spokenAudio(text, format[0], format[1])
    return { status: 200, json: { audio_base64: audio.toString('base64'), alignment, normalized_alignment: alignment } }
  })
}
