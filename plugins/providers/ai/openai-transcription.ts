import { openAsBlob } from 'node:fs'
import { rm } from 'node:fs/promises'
import { type AiProviderPlugin, defineAiProvider, type Probe, RenderError, type TimedWord } from '../../../core/index.js'
import { speechSpan } from '../../lib/audio/silences.js'
import { estimateWords, round, wordTokens } from '../../lib/audio/timed-words.js'
import { undici } from '../../lib/net/undici.js'
import { type HttpOptions, upstreamError } from '../http.js'
import { safeJson } from '../openai.js'
import { openaiClient } from './openai-shared.js'
import { soundOnly, speechAudio } from './transcription-audio.js'

export interface OpenAITranscriptionOptions extends HttpOptions {
  /** Sent as `Authorization: Bearer`; a local Whisper server may need none. */
  apiKey?: string
  /** Default `https://api.openai.com`; any OpenAI-compatible server (faster-whisper-server, LocalAI, …). A trailing `/v1` is accepted. */
  baseUrl?: string
  /** The upstream model sent for every request (e.g. `Systran/faster-whisper-small`); default: the public name asked for. */
  model?: string
  /** Public model names it serves (default `whisper-1`, `gpt-4o-transcribe`, `gpt-4o-mini-transcribe`). */
  models?: readonly string[]
  /** The largest upload, in bytes (default OpenAI's 25 MB, 26,214,400 bytes, less room for the form around it). */
  maxUploadBytes?: number
}

/** Upload formats OpenAI reads, by ffprobe's format name → the file name extension it judges them by. */
const ACCEPTED: Record<string, string> = { mp3: 'mp3', wav: 'wav', flac: 'flac', ogg: 'ogg' }
const MIME: Record<string, string> = { mp3: 'audio/mpeg', wav: 'audio/wav', flac: 'audio/flac', ogg: 'audio/ogg' }

/**
 * `transcription` (automatic subtitles) through OpenAI's `POST /v1/audio/transcriptions` (multipart). A video,
 * or audio OpenAI does not take or that is too big, is first reduced to its sound (mono 16 kHz mp3). Whisper
 * models answer `verbose_json` with word timestamps; OpenAI's gpt-4o transcribe models accept only `json`
 * (they refuse `verbose_json` with a 400), so their word times are ESTIMATED over the audio's speech span.
 */
export function openaiTranscriptionProvider(opts: OpenAITranscriptionOptions = {}): AiProviderPlugin<'transcription'> {
  const { post } = openaiClient(opts)
  const maxBytes = opts.maxUploadBytes ?? 26_214_400 - 64 * 1024
  return defineAiProvider({
    kind: 'ai',
    name: 'openai-transcription',
    task: 'transcription',
    models: opts.models ?? ['whisper-1', 'gpt-4o-transcribe', 'gpt-4o-mini-transcribe'],
    async run(req, { signal, workDir }) {
      let format = 'mp3'
      const keep = (info: Probe, bytes: number) => ((format = info.format), soundOnly(info) && info.format in ACCEPTED && bytes <= maxBytes)
      const audio = await speechAudio(req.path, { workDir, signal, format: 'mp3', keep })
      if (!audio) return { text: '', words: [] }
      try {
        const ext = audio.made ? 'mp3' : ACCEPTED[format]!
        // A Blob backed by the file: read from disk as the form is sent (again on a retry), never held in memory.
        const file = await openAsBlob(audio.path, { type: MIME[ext] })
        if (file.size > maxBytes)
          throw new RenderError('E_PROVIDER_FAILED', `openai: the sound is ${mb(file.size)} as 32 kbit/s mono mp3, over the ${mb(maxBytes)} upload limit`, {
            vendor: 'openai',
            tooLarge: true,
          })
        const model = opts.model ?? req.model
        // OpenAI's gpt-4o transcribe models refuse verbose_json; every Whisper (and compatible server) takes it.
        const verbose = !/^gpt-4o.*transcribe/.test(model)
        const form = new (undici().FormData)()
        form.set('file', file, `audio.${ext}`)
        form.set('model', model)
        form.set('response_format', verbose ? 'verbose_json' : 'json')
        if (verbose) form.append('timestamp_granularities[]', 'word')
        if (req.language) form.set('language', req.language.toLowerCase().split(/[-_]/)[0]!)
        // Transcribing an hour takes minutes upstream: a longer wait than other requests by default.
        const res = await post('/v1/audio/transcriptions', form, signal, { ...opts, timeoutMs: opts.timeoutMs ?? 300_000 })
        const json = safeJson(res.body) as Verbose | undefined
        if (typeof json?.text !== 'string') throw upstreamError('openai', res, 'the answer holds no transcription text')
        const text = json.text.trim()
        return { text, words: await timedWords(json, text, audio, signal), ...(json.language ? { language: json.language } : {}) }
      } finally {
        if (audio.made) await rm(audio.path, { force: true })
      }
    },
  })
}

interface Verbose {
  text: string
  language?: string
  words?: Array<{ word: string; start: number; end: number }>
  segments?: Array<{ start: number; end: number; text: string }>
}

const mb = (n: number) => `${(n / 1_048_576).toFixed(1)} MB`
const letters = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '')

/**
 * Word times from the answer: Whisper's `words` (which drop punctuation: it is put back from `text`, so a
 * caption reads "there," not "there"), else each segment's words spread over the segment (servers that give
 * only segments), else an estimate over the speech found in the audio (gpt-4o models).
 */
async function timedWords(json: Verbose, text: string, audio: { path: string; duration: number }, signal: AbortSignal): Promise<TimedWord[]> {
  if (json.words?.length) {
    const tokens = wordTokens(text)
    let at = 0
    return json.words.map((w) => {
      const k = tokens.findIndex((t, i) => i >= at && i < at + 3 && letters(t.text) === letters(w.word))
      if (k >= 0) at = k + 1
      return { text: k >= 0 ? tokens[k]!.text : w.word.trim(), start: round(w.start), end: round(Math.max(w.start, w.end)) }
    })
  }
  if (json.segments?.length) return json.segments.flatMap((s) => estimateWords(s.text, s.start, s.end))
  if (!text) return []
  const span = await speechSpan(audio.path, audio.duration, signal)
  return estimateWords(text, span.from, span.to, span.pauses)
}
