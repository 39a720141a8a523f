import { spawn } from 'node:child_process'
import { access, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { type AiProviderPlugin, defineAiProvider, RenderError, type TimedWord } from '../../../core/index.js'
import { round } from '../../lib/audio/timed-words.js'
import { speechAudio } from './transcription-audio.js'

export interface PocketsphinxOptions {
  /** The decoder: default `REELFORGE_POCKETSPHINX`, else `pocketsphinx_continuous` from PATH (Debian `pocketsphinx`). */
  bin?: string
  /** The model folder: default `REELFORGE_POCKETSPHINX_MODEL`, else Debian `pocketsphinx-en-us`'s `/usr/share/pocketsphinx/model/en-us`. */
  modelDir?: string
}

const INSTALL = 'apt-get install pocketsphinx pocketsphinx-en-us'

/**
 * `transcription` offline with CMU PocketSphinx, the one recognizer that installs from Debian packages with its
 * model inside (`pocketsphinx-en-us`: US English acoustic model, 3-gram language model, CMU dictionary; the npm
 * recognizers we know, vosk and the whisper.cpp builds, ship without a model and fetch one). Free, offline and
 * fast (about 0.2× real time on one core); its word times are good (median 13 ms, 90% within 40–60 ms of
 * espeak-ng's own), but its words are not: about one in three is wrong on clean read speech (37% WER on
 * LibriVox; 31–36% on espeak-ng's Klatt voice at 175 wpm, 59% at 165, 76–92% on espeak's default voices — en-us+f3
 * 76% and +m3 84% on the test's sentences, which it prints).
 * English only; words come lower case and unpunctuated. A Whisper provider is the one for captions people read.
 */
export function pocketsphinxTranscriptionProvider(opts: PocketsphinxOptions = {}): AiProviderPlugin<'transcription'> {
  return defineAiProvider({
    kind: 'ai',
    name: 'pocketsphinx-transcription',
    task: 'transcription',
    models: ['pocketsphinx'],
    local: true,
    async run(req, { signal, workDir }) {
      if (req.language && !/^en\b/i.test(req.language))
        throw new RenderError('E_PROVIDER_FAILED', `pocketsphinx: the local engine knows only English, not "${req.language}"; configure OPENAI_API_KEY`, {
          vendor: 'pocketsphinx',
        })
      const bin = opts.bin ?? process.env.REELFORGE_POCKETSPHINX ?? 'pocketsphinx_continuous'
      const model = opts.modelDir ?? process.env.REELFORGE_POCKETSPHINX_MODEL ?? '/usr/share/pocketsphinx/model/en-us'
      const files = { hmm: join(model, 'en-us'), lm: join(model, 'en-us.lm.bin'), dict: join(model, 'cmudict-en-us.dict') }
      for (const f of Object.values(files))
        await access(f).catch(() => {
          throw new RenderError('E_PLUGIN_NOT_FOUND', `pocketsphinx: the English model is missing (${f}); ${INSTALL}`, { vendor: 'pocketsphinx' })
        })
      // Raw 16 kHz mono samples: the rate the model was trained at, and the one input the decoder reads natively.
      const audio = await speechAudio(req.path, { workDir, signal, format: 'pcm' })
      if (!audio) return { text: '', words: [] }
      try {
        const args = ['-infile', audio.path, '-time', 'yes', '-logfn', '/dev/null', '-hmm', files.hmm, '-lm', files.lm, '-dict', files.dict]
        const words = parseWordTimes(await decode(bin, args, signal), audio.duration)
        return { text: words.map((w) => w.text).join(' '), words, language: 'en' }
      } finally {
        await rm(audio.path, { force: true })
      }
    },
  })
}

/** The provider with the Debian paths (or the environment's). */
export const localTranscriptionProvider = pocketsphinxTranscriptionProvider()

/** Runs the decoder to the end; its standard output is what we read. */
function decode(bin: string, args: string[], signal: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'], signal })
    let out = ''
    let err = ''
    child.stdout.on('data', (d) => (out += d))
    child.stderr.on('data', (d) => (err = (err + d).slice(-2000)))
    child.on('error', (e: NodeJS.ErrnoException) => {
      if (signal.aborted) reject(new RenderError('E_CANCELLED', 'cancelled'))
      else if (e.code === 'ENOENT')
        reject(new RenderError('E_PLUGIN_NOT_FOUND', `pocketsphinx: ${bin} is not installed; ${INSTALL}`, { vendor: 'pocketsphinx' }))
      else reject(e)
    })
    child.on('close', (code) => {
      if (signal.aborted) return reject(new RenderError('E_CANCELLED', 'cancelled'))
      if (code === 0) resolve(out)
      else
        reject(
          new RenderError('E_PROVIDER_FAILED', `pocketsphinx failed (exit ${code}): ${err.trim().split('\n').slice(-3).join(' | ')}`, {
            vendor: 'pocketsphinx',
          }),
        )
    })
  })
}

/**
 * `-time yes` output: after each utterance's text line, one `word start end confidence` line per segment, in
 * seconds from the file's start. `<s>`, `</s>`, `<sil>`, `[NOISE]` and `++FILLER++` are silences, not words;
 * `word(2)` names the dictionary's second pronunciation of `word`.
 */
export function parseWordTimes(output: string, duration = Number.POSITIVE_INFINITY): TimedWord[] {
  const words: TimedWord[] = []
  for (const line of output.split('\n')) {
    const m = /^(\S+) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?) (?:-?\d+(?:\.\d+)?(?:e-?\d+)?)$/.exec(line.trim())
    if (!m || /^(<.*>|\[.*\]|\+\+.*\+\+)$/.test(m[1]!)) continue
    const start = Math.min(Number(m[2]), duration)
    words.push({ text: m[1]!.replace(/\(\d+\)$/, ''), start: round(start), end: round(Math.max(start, Math.min(Number(m[3]), duration))) })
  }
  return words
}
