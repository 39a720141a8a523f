import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ffmpegArgs, runFfmpeg, type TimedWord } from '../../../core/index.js'
import { espeakWordTimes } from '../../../plugins/lib/audio/espeak-words.js'
import { speak } from '../../../plugins/lib/audio/speech.js'

/** Silence vendors put before and after the voice (OpenAI's files start and end with some), in seconds. */
export const PAD = 0.25

/**
 * Real speech for a fake vendor to answer: `text` spoken by espeak-ng (so its words can be found in the audio
 * and timed exactly), padded with `PAD` seconds of silence at both ends, at `sampleRate`, as mp3 or wav bytes.
 */
export async function spokenAudio(text: string, format: 'mp3' | 'wav', sampleRate = 24000): Promise<Buffer> {
  const speech = await speak(text, { voice: 'alloy' })
  const dir = await mkdtemp(join(tmpdir(), 'fake-speech-'))
  try {
    const out = join(dir, `speech.${format}`)
    const pad = `adelay=${PAD * 1000}:all=1,apad=pad_dur=${PAD},aresample=${sampleRate}`
    const codec = format === 'mp3' ? ['-c:a', 'libmp3lame', '-b:a', '64k'] : ['-c:a', 'pcm_s16le']
    await runFfmpeg([...ffmpegArgs`-v error -y -i ${speech.path} -af ${pad} -ac 1`, ...codec, out])
    return await readFile(out)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** When each word of `text` is said in `spokenAudio(text)`: espeak-ng's exact times, shifted by the padding. */
export async function spokenWords(text: string): Promise<TimedWord[]> {
  const speech = await speak(text, { voice: 'alloy' })
  const words = await espeakWordTimes(text, speech.voice, speech.rate)
  return words.map((w) => ({ text: w.text, start: w.start + PAD, end: w.end + PAD }))
}
