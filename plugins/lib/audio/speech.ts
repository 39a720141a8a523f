import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync } from 'node:fs'
import { rename } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { probe, RenderError } from '../../../core/index.js'

/** Amazon Polly's voice names, which Shotstack uses, by gender and accent. */
const VOICES: Record<string, { gender: 'f' | 'm'; lang: string }> = {
  Joanna: { gender: 'f', lang: 'en-us' },
  Salli: { gender: 'f', lang: 'en-us' },
  Kimberly: { gender: 'f', lang: 'en-us' },
  Kendra: { gender: 'f', lang: 'en-us' },
  Ivy: { gender: 'f', lang: 'en-us' },
  Ruth: { gender: 'f', lang: 'en-us' },
  Danielle: { gender: 'f', lang: 'en-us' },
  Matthew: { gender: 'm', lang: 'en-us' },
  Joey: { gender: 'm', lang: 'en-us' },
  Justin: { gender: 'm', lang: 'en-us' },
  Kevin: { gender: 'm', lang: 'en-us' },
  Stephen: { gender: 'm', lang: 'en-us' },
  Gregory: { gender: 'm', lang: 'en-us' },
  Amy: { gender: 'f', lang: 'en-gb' },
  Emma: { gender: 'f', lang: 'en-gb' },
  Brian: { gender: 'm', lang: 'en-gb' },
  Arthur: { gender: 'm', lang: 'en-gb' },
  Olivia: { gender: 'f', lang: 'en-gb' },
  Aria: { gender: 'f', lang: 'en-gb' },
  Ayanda: { gender: 'f', lang: 'en-gb' },
  // OpenAI's voice names, so a voiceover asked of OpenAI speaks offline with a voice of the same kind.
  alloy: { gender: 'f', lang: 'en-us' },
  ash: { gender: 'm', lang: 'en-us' },
  ballad: { gender: 'm', lang: 'en-gb' },
  cedar: { gender: 'm', lang: 'en-us' },
  coral: { gender: 'f', lang: 'en-us' },
  echo: { gender: 'm', lang: 'en-us' },
  fable: { gender: 'm', lang: 'en-gb' },
  marin: { gender: 'f', lang: 'en-us' },
  nova: { gender: 'f', lang: 'en-us' },
  onyx: { gender: 'm', lang: 'en-us' },
  sage: { gender: 'f', lang: 'en-us' },
  shimmer: { gender: 'f', lang: 'en-us' },
  verse: { gender: 'm', lang: 'en-us' },
  // ElevenLabs' premade voices that Shotstack's Create API offers, so the sandbox speaks them offline alike.
  Adam: { gender: 'm', lang: 'en-us' },
  Antoni: { gender: 'm', lang: 'en-us' },
  Arnold: { gender: 'm', lang: 'en-us' },
  Bella: { gender: 'f', lang: 'en-us' },
  Domi: { gender: 'f', lang: 'en-us' },
  Elli: { gender: 'f', lang: 'en-us' },
  Josh: { gender: 'm', lang: 'en-us' },
  Rachel: { gender: 'f', lang: 'en-us' },
  Sam: { gender: 'm', lang: 'en-us' },
}

/** The gender of a known Polly or OpenAI voice name (for vendors that pick a voice of the same kind). */
export const voiceGender = (name: string | undefined): 'f' | 'm' | undefined => (name ? VOICES[name]?.gender : undefined)

export interface Speech {
  path: string
  duration: number
  /** The espeak-ng voice and words per minute it was spoken with (word timings must use the same). */
  voice: string
  rate: number
}

const cache = new Map<string, Promise<Speech>>()

/**
 * Speaks `text` with the local espeak-ng engine into a WAV (no cloud voice needed). Polly voice names map
 * to an espeak voice of the same gender and accent; `language` (BCP-47) picks the language. Results are
 * content-addressed on disk and shared within the process, so a caption of the same voice-over reuses it.
 * `rate` (espeak words per minute, 80–450) overrides the pace; it is not the asset's playback `speed`.
 */
export function speak(text: string, opts: { voice?: string; language?: string; newscaster?: boolean; rate?: number } = {}): Promise<Speech> {
  const known = opts.voice ? VOICES[opts.voice] : undefined
  const lang = opts.language
    ? opts.language
        .toLowerCase()
        .replace('_', '-')
        .replace(/^(en-(us|gb|au|in|nz|za)|[a-z]{2,3}).*$/, '$1')
    : (known?.lang ?? 'en-us')
  const voice = `${lang}+${known?.gender === 'm' ? 'm3' : 'f3'}`
  const rate = opts.rate ? Math.round(Math.min(450, Math.max(80, opts.rate))) : opts.newscaster ? 185 : 165
  const key = createHash('sha256')
    .update(JSON.stringify([text, voice, rate]))
    .digest('hex')
  let pending = cache.get(key)
  if (!pending) {
    pending = synthesize(text, voice, rate, key)
    cache.set(key, pending)
    pending.catch(() => cache.delete(key))
  }
  return pending
}

async function synthesize(text: string, voice: string, rate: number, key: string): Promise<Speech> {
  const dir = join(tmpdir(), 'reelforge-speech')
  mkdirSync(dir, { recursive: true })
  const path = join(dir, `${key}.wav`)
  if (!existsSync(path)) {
    const part = `${path}.${process.pid}.part`
    await new Promise<void>((resolve, reject) => {
      const child = spawn('espeak-ng', ['-v', voice, '-s', String(rate), '-w', part, '--stdin'], { stdio: ['pipe', 'ignore', 'pipe'] })
      let err = ''
      child.stderr.on('data', (d) => (err += d))
      child.on('error', (e: NodeJS.ErrnoException) =>
        reject(e.code === 'ENOENT' ? new RenderError('E_PLUGIN_NOT_FOUND', 'text-to-speech needs espeak-ng (apt-get install espeak-ng)') : e),
      )
      child.on('close', (code) => (code === 0 ? resolve() : reject(new RenderError('E_PLUGIN_FAILED', `espeak-ng failed (exit ${code}): ${err.trim()}`))))
      child.stdin.end(text)
    })
    await rename(part, path)
  }
  const info = await probe(path)
  return { path, duration: info.duration ?? 0, voice, rate }
}
