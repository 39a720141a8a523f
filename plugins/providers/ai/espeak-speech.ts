import { createHash } from 'node:crypto'
import { copyFile } from 'node:fs/promises'
import { join } from 'node:path'
import { type AiProviderPlugin, defineAiProvider, ffmpegArgs, probe, RenderError, runFfmpeg, type SpeechRequest } from '../../../core/index.js'
import { espeakWordTimes } from '../../lib/audio/espeak-words.js'
import { speechSpan } from '../../lib/audio/silences.js'
import { speak } from '../../lib/audio/speech.js'
import { estimateWords } from '../../lib/audio/timed-words.js'

/** espeak-ng's pace at `speed` 1 (the text-to-speech asset's own), in words per minute. */
const BASE_RATE = 165

/**
 * `speech` (voiceover) offline with espeak-ng: the same voice and audio as the `text-to-speech` asset (Polly
 * and OpenAI voice names map to an espeak voice of the same gender and accent; `speed` scales the words per
 * minute, 165 at 1, within espeak's 80–450), and each word's exact time from espeak-ng's own events (see
 * espeak-words.ts): a caption built from them changes word exactly when the voice does. WAV as spoken; MP3
 * encoded by ffmpeg. Free, deterministic and offline, so sandbox keys use it.
 */
export const espeakSpeechProvider: AiProviderPlugin<'speech'> = defineAiProvider({
  kind: 'ai',
  name: 'espeak-speech',
  task: 'speech',
  models: ['espeak-ng'],
  local: true,
  async run(req, { signal, workDir }) {
    if (!req.text.trim()) throw new RenderError('E_PROVIDER_FAILED', 'espeak-ng: there is no text to speak', { vendor: 'espeak-ng' })
    const rate = BASE_RATE * (req.speed && req.speed > 0 ? req.speed : 1)
    const speech = await speak(req.text, { voice: req.voice, language: req.language, rate })
    if (signal.aborted) throw new RenderError('E_CANCELLED', 'cancelled')
    const [path, words] = await Promise.all([
      encode(speech.path, req, workDir, signal),
      espeakWordTimes(req.text, speech.voice, speech.rate, signal).catch(async () => {
        if (signal.aborted) throw new RenderError('E_CANCELLED', 'cancelled')
        // No python3 or no libespeak-ng (a trimmed image): the voice still works, its word times are estimated.
        const span = await speechSpan(speech.path, speech.duration, signal)
        return estimateWords(req.text, span.from, span.to, span.pauses)
      }),
    ])
    const duration = req.format === 'wav' ? speech.duration : ((await probe(path, { signal })).duration ?? speech.duration)
    return { path, mime: req.format === 'wav' ? 'audio/wav' : 'audio/mpeg', duration, words }
  },
})

/** The spoken WAV in the caller's `workDir`: copied as is, or encoded to MP3 (mono, 128 kb/s, like OpenAI's). */
async function encode(wav: string, req: SpeechRequest, workDir: string, signal: AbortSignal): Promise<string> {
  const name = createHash('sha256').update(wav).digest('hex').slice(0, 16)
  const out = join(workDir, `speech-${name}.${req.format}`)
  if (req.format === 'wav') await copyFile(wav, out)
  else await runFfmpeg(ffmpegArgs`-v error -y -i ${wav} -c:a libmp3lame -b:a 128k ${out}`, { signal, what: 'mp3 encoding' })
  return out
}
