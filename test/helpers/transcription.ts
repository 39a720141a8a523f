import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { ffmpegArgs, runFfmpeg, type TimedWord } from '../../core/index.js'
import { espeakWordTimes } from '../../plugins/lib/audio/espeak-words.js'

/** Words as a word error rate counts them: lower case, letters, digits and apostrophes only. */
export const normalWords = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? []

/**
 * Word-level edit distance between what was said (`ref`) and what was heard (`hyp`), and the pairs of words
 * that matched (indexes into each), from the standard Levenshtein alignment. WER = errors / ref.length.
 */
export function alignWords(ref: readonly string[], hyp: readonly string[]): { errors: number; pairs: Array<[number, number]> } {
  const d = Array.from({ length: ref.length + 1 }, (_, i) => Array.from({ length: hyp.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)))
  for (let i = 1; i <= ref.length; i++)
    for (let j = 1; j <= hyp.length; j++) d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (ref[i - 1] === hyp[j - 1] ? 0 : 1))
  const pairs: Array<[number, number]> = []
  let i = ref.length
  let j = hyp.length
  while (i > 0 && j > 0) {
    const same = ref[i - 1] === hyp[j - 1]
    if (d[i]![j] === d[i - 1]![j - 1]! + (same ? 0 : 1)) {
      if (same) pairs.unshift([i - 1, j - 1])
      i--
      j--
    } else if (d[i]![j] === d[i - 1]![j]! + 1) i--
    else j--
  }
  return { errors: d[ref.length]![hyp.length]!, pairs }
}

/**
 * `text` spoken by the espeak-ng command line into `dir/<name>.wav` with `voice` at `rate` words per minute,
 * and the exact time of each word from espeak-ng's own events (the library speaks the same samples).
 */
export async function espeakSpeech(dir: string, name: string, text: string, voice: string, rate: number): Promise<{ path: string; words: TimedWord[] }> {
  const path = join(dir, `${name}.wav`)
  await new Promise<void>((resolve, reject) => {
    const child = spawn('espeak-ng', ['-v', voice, '-s', String(rate), '-w', path, text], { stdio: 'ignore' })
    child.on('error', reject)
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`espeak-ng exited ${code}`))))
  })
  return { path, words: await espeakWordTimes(text, voice, rate) }
}

/** An mp4 of a plain picture with `audio` as its sound (AAC), lasting as long as the sound. */
export async function videoWithSound(audio: string, out: string): Promise<string> {
  await runFfmpeg(ffmpegArgs`-v error -y -f lavfi -i color=c=navy:s=320x240:r=25 -i ${audio} -map 0:v -map 1:a -shortest
    -c:v libx264 -preset ultrafast -pix_fmt yuv420p -c:a aac -b:a 96k -ac 2 -ar 44100 ${out}`)
  return out
}

/** A silent mp4 (a picture and no sound track). */
export async function silentVideo(out: string, seconds = 1): Promise<string> {
  await runFfmpeg(ffmpegArgs`-v error -y -f lavfi -i ${`color=c=gray:s=160x120:r=25:d=${seconds}`} -c:v libx264 -preset ultrafast -pix_fmt yuv420p ${out}`)
  return out
}
