import { randomUUID } from 'node:crypto'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { type AiProviderPlugin, defineAiProvider, probe, RenderError } from '../../../core/index.js'
import { wordsFromCharacters } from '../../lib/audio/timed-words.js'
import { type HttpOptions, type HttpResponse, moderated, providerRequest, upstreamError, keyRedactor } from '../http.js'
import { safeJson } from '../openai.js'

export interface ElevenLabsSpeechOptions extends HttpOptions {
  /** Sent as `xi-api-key`. */
  apiKey: string
  /** Default `https://api.elevenlabs.io`. */
  baseUrl?: string
  /** The upstream `model_id` sent for every request; default: the public name asked for. */
  model?: string
  /** Public model names it serves (default ElevenLabs' own ids: `eleven_multilingual_v2`, `eleven_flash_v2_5`, …). */
  models?: readonly string[]
  /** Voice names (Polly's, OpenAI's, your own) → ElevenLabs voice ids, besides the premade ones (`PREMADE_VOICES`). */
  voices?: Record<string, string>
  /** The voice for requests naming none or a name not in `voices` (default George, a premade voice every account has). */
  defaultVoiceId?: string
  /** `output_format` per format (default `mp3_44100_128` and `wav_24000`; 44.1 kHz WAV needs a Pro plan). */
  outputFormats?: { mp3?: string; wav?: string }
}

// ElevenLabs voice ids are 20 letters and digits; anything else is a name to look up.
const VOICE_ID = /^[A-Za-z0-9]{20}$/
/** ElevenLabs' premade voices by name: the ones Shotstack's Create API offers (`voices` adds to and overrides them). */
export const PREMADE_VOICES: Record<string, string> = {
  Adam: 'pNInz6obpgDQGcFmaJgB',
  Antoni: 'ErXwobaYiN019PkySvjV',
  Arnold: 'VR6AewLTigWG4xSOukaG',
  Bella: 'EXAVITQu4vr4xnSDxMaL',
  Domi: 'AZnzlk1XvdvUeBnXmlld',
  Elli: 'MF3mGyEYCl7XYWbV9V6O',
  Josh: 'TxGEqnHWrfWFTfGW9XjX',
  Rachel: '21m00Tcm4TlvDq8ikWAM',
  Sam: 'yoZ06aMxZJJ28mfd3POQ',
}

/**
 * `speech` (voiceover) through ElevenLabs' `POST /v1/text-to-speech/{voice_id}/with-timestamps`: base64 audio
 * plus the start and end of every character of the text, which become exact word timings. `alignment` follows
 * the text as written (`normalized_alignment` follows the text with numbers spelled out, whose words are not
 * the script's), so it is preferred. `speed` goes in `voice_settings`, clamped to ElevenLabs' 0.7–1.2.
 */
export function elevenlabsSpeechProvider(opts: ElevenLabsSpeechOptions): AiProviderPlugin<'speech'> {
  const base = (opts.baseUrl ?? 'https://api.elevenlabs.io').replace(/\/+$/, '')
  return defineAiProvider({
    kind: 'ai',
    name: 'elevenlabs-speech',
    task: 'speech',
    models: opts.models ?? ['eleven_multilingual_v2', 'eleven_flash_v2_5', 'eleven_turbo_v2_5', 'eleven_v3'],
    async run(req, { signal, workDir }) {
      const named = req.voice && (opts.voices?.[req.voice] ?? PREMADE_VOICES[req.voice])
      const voiceId = (req.voice && (named ?? (VOICE_ID.test(req.voice) ? req.voice : undefined))) || (opts.defaultVoiceId ?? 'JBFqnCBsd6RMkjVDRZzb')
      const format = req.format === 'wav' ? (opts.outputFormats?.wav ?? 'wav_24000') : (opts.outputFormats?.mp3 ?? 'mp3_44100_128')
      const body = {
        text: req.text,
        model_id: opts.model ?? req.model,
        ...(req.speed !== undefined ? { voice_settings: { speed: Math.min(1.2, Math.max(0.7, req.speed)) } } : {}),
      }
      const url = `${base}/v1/text-to-speech/${encodeURIComponent(voiceId)}/with-timestamps?output_format=${encodeURIComponent(format)}`
      const res = await providerRequest(
        'elevenlabs',
        url,
        { method: 'POST', headers: { 'xi-api-key': opts.apiKey, 'content-type': 'application/json' }, body: JSON.stringify(body), signal },
        opts,
      )
      const json = safeJson(res.body) as TimestampedAudio | undefined
      if (res.status !== 200) throw failure(res, json, opts.apiKey)
      const alignment = json?.alignment ?? json?.normalized_alignment
      if (typeof json?.audio_base64 !== 'string' || !alignment?.characters) throw upstreamError('elevenlabs', res, 'the answer holds no audio or no alignment')
      const path = join(workDir, `speech-${randomUUID()}.${req.format}`)
      await writeFile(path, Buffer.from(json.audio_base64, 'base64'))
      const duration = (await probe(path, { signal }).catch(() => undefined))?.duration
      if (!duration) throw upstreamError('elevenlabs', res, `the answer is not ${req.format} audio`)
      const words = wordsFromCharacters(alignment.characters, alignment.character_start_times_seconds, alignment.character_end_times_seconds)
      return { path, mime: req.format === 'wav' ? 'audio/wav' : 'audio/mpeg', duration, words: words.map((w) => ({ ...w, end: Math.min(w.end, duration) })) }
    },
  })
}

interface Alignment {
  characters: string[]
  character_start_times_seconds: number[]
  character_end_times_seconds: number[]
}
interface TimestampedAudio {
  audio_base64?: string
  alignment?: Alignment | null
  normalized_alignment?: Alignment | null
  /** Errors: `{status, message}`, or FastAPI's list of `{loc, msg, type}` for a 422. */
  detail?: { status?: string; message?: string } | Array<{ loc?: unknown[]; msg?: string }>
}

/** ElevenLabs' `{detail: {status, message}}` as our error; a refused key or exhausted quota never quotes the key. */
function failure(res: HttpResponse, json: TimestampedAudio | undefined, key: string): RenderError {
  const detail = Array.isArray(json?.detail) ? { status: 'invalid_request', message: json.detail.map((d) => d.msg).join('; ') } : json?.detail
  const message = detail?.message === undefined ? undefined : keyRedactor(key)(detail.message)
  if (/bad_prompt|tos|policy|moderat/i.test(detail?.status ?? '') || /terms of service|violat/i.test(message ?? ''))
    return moderated('elevenlabs', message ?? 'content policy')
  if (detail?.status === 'quota_exceeded' || res.status === 402)
    return new RenderError('E_PROVIDER_FAILED', `elevenlabs: the account has no credit left (HTTP ${res.status})`, {
      vendor: 'elevenlabs',
      status: res.status,
      retryable: false,
    })
  if (res.status === 401 || res.status === 403 || detail?.status === 'invalid_api_key')
    return new RenderError('E_PROVIDER_FAILED', `elevenlabs: the ElevenLabs key was refused (HTTP ${res.status})`, {
      vendor: 'elevenlabs',
      status: res.status,
      retryable: false,
    })
  return upstreamError('elevenlabs', res, message ? `${message}${detail?.status ? ` (${detail.status})` : ''}` : undefined)
}
