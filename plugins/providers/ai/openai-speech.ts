import { randomUUID } from 'node:crypto'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { type AiProviderPlugin, defineAiProvider, probe, type TimedWord } from '../../../core/index.js'
import { speechSpan } from '../../lib/audio/silences.js'
import { voiceGender } from '../../lib/audio/speech.js'
import { estimateWords } from '../../lib/audio/timed-words.js'
import { type HttpOptions, upstreamError } from '../http.js'
import { openaiClient } from './openai-shared.js'

/** Times the words of speech that came without timings, e.g. through a transcription with word timestamps. */
export type SpeechAligner = (audio: { path: string; text: string; duration: number }, signal: AbortSignal) => Promise<TimedWord[]>

export interface OpenAISpeechOptions extends HttpOptions {
  apiKey?: string
  /** Default `https://api.openai.com`; any OpenAI-compatible speech server works. A trailing `/v1` is accepted. */
  baseUrl?: string
  /** The upstream model sent for every request; default: the public name asked for. */
  model?: string
  /** Public model names it serves (default `tts-1`, `tts-1-hd`, `gpt-4o-mini-tts`). */
  models?: readonly string[]
  /** Word timings from the audio (a transcription); default: an estimate (`estimateWords`). */
  align?: SpeechAligner
}

const OPENAI_VOICES = new Set(['alloy', 'ash', 'ballad', 'cedar', 'coral', 'echo', 'fable', 'marin', 'nova', 'onyx', 'sage', 'shimmer', 'verse'])

/**
 * `speech` (voiceover) through OpenAI's Speech API (`POST /v1/audio/speech`), which answers the audio bytes
 * and nothing else. OpenAI gives no word timings, so unless an `align` hook is configured they are ESTIMATED:
 * the spoken span (ffmpeg's silencedetect trims the padding) shared out by word length with longer pauses at
 * punctuation — good for phrase captions, not for karaoke. Polly voice names become an OpenAI voice of the
 * same gender; an unknown name is sent as given, so new OpenAI voices work.
 */
export function openaiSpeechProvider(opts: OpenAISpeechOptions = {}): AiProviderPlugin<'speech'> {
  const { post } = openaiClient(opts)
  return defineAiProvider({
    kind: 'ai',
    name: 'openai-speech',
    task: 'speech',
    models: opts.models ?? ['tts-1', 'tts-1-hd', 'gpt-4o-mini-tts'],
    async run(req, { signal, workDir }) {
      const voice = !req.voice
        ? 'alloy'
        : OPENAI_VOICES.has(req.voice) || !voiceGender(req.voice)
          ? req.voice
          : voiceGender(req.voice) === 'm'
            ? 'onyx'
            : 'nova'
      const body = {
        model: opts.model ?? req.model,
        input: req.text,
        voice,
        response_format: req.format,
        ...(req.speed !== undefined ? { speed: Math.min(4, Math.max(0.25, req.speed)) } : {}),
      }
      const res = await post('/v1/audio/speech', body, signal)
      const path = join(workDir, `speech-${randomUUID()}.${req.format}`)
      await writeFile(path, res.body)
      const duration = (await probe(path, { signal }).catch(() => undefined))?.duration
      if (!duration) throw upstreamError('openai', res, `the answer is not ${req.format} audio`)
      const words = opts.align
        ? await opts.align({ path, text: req.text, duration }, signal)
        : await speechSpan(path, duration, signal).then((s) => estimateWords(req.text, s.from, s.to, s.pauses))
      return { path, mime: req.format === 'wav' ? 'audio/wav' : 'audio/mpeg', duration, words }
    },
  })
}
