import type { TimedWord } from '../../../core/index.js'

/**
 * The words of a text as captions show them: runs of non-space characters holding a letter or a digit, with
 * their punctuation attached ("there," stays one word; a lone "—" is not a word). Every speech engine here
 * times exactly these, so a script's word count is the same whichever engine voiced it. `from`/`to` count
 * code points (espeak-ng's text positions and ElevenLabs' character list do too), `to` exclusive.
 */
export function wordTokens(text: string): Array<{ text: string; from: number; to: number }> {
  const out: Array<{ text: string; from: number; to: number }> = []
  let run = ''
  let from = 0
  let at = 0
  const flush = () => {
    if (/[\p{L}\p{N}]/u.test(run)) out.push({ text: run, from, to: at })
    run = ''
  }
  for (const c of text) {
    if (/\s/u.test(c)) flush()
    else {
      if (!run) from = at
      run += c
    }
    at++
  }
  flush()
  return out
}

/**
 * Word timings from per-character timings (ElevenLabs' `alignment`): a word starts when its first character
 * starts and ends when its last one ends. Characters are matched to the text's words by position.
 */
export function wordsFromCharacters(characters: string[], starts: number[], ends: number[]): TimedWord[] {
  // An entry is one character, but a vendor may put a multi-code-point one in one entry: index by code point.
  const entry = characters.flatMap((c, k) => Array.from(c, () => k))
  return wordTokens(characters.join('')).map((w) => {
    const first = entry[w.from]!
    const last = entry[w.to - 1]!
    return { text: w.text, start: starts[first] ?? 0, end: Math.max(ends[last] ?? 0, starts[first] ?? 0) }
  })
}

/** Pause weight after a word, in letters: how much longer a clause or sentence break lasts than a word gap. */
const pauseAfter = (word: string) => (/[.!?…]["')\]]*$/.test(word) ? 6 : /[,;:—–-]["')\]]*$/.test(word) ? 3 : 1)
/** How long a word takes to say, in letters: a digit is said as a word or more ("123"), and so is a symbol ("$", "%"). */
const weight = (w: string) =>
  Math.max(1, (w.match(/\p{L}/gu)?.length ?? 0) + 3 * (w.match(/\p{N}/gu)?.length ?? 0) + 5 * (w.match(/[$%€£&@#+=]/gu)?.length ?? 0))

/** `words` spread over `[from, to]` by weight, with the pauses between them. */
function share(words: string[], from: number, to: number): TimedWord[] {
  const total = words.reduce((s, w, i) => s + weight(w) + (i < words.length - 1 ? pauseAfter(w) : 0), 0)
  const unit = total > 0 ? Math.max(0, to - from) / total : 0
  let t = from
  return words.map((w, i) => {
    const start = t
    t += weight(w) * unit
    const end = t
    if (i < words.length - 1) t += pauseAfter(w) * unit
    return { text: w, start: round(start), end: round(end) }
  })
}

/**
 * An ESTIMATE of when each word is said, for audio that came with no timings (OpenAI's speech API): the
 * spoken span `[from, to]` shared out by each word's length (digits and symbols count as the words they are
 * read as), with longer pauses at commas and sentence ends. `pauses` (silences found in the audio) anchor it:
 * a word ending in punctuation whose estimated end falls near a pause ends where that pause starts, and the
 * rest is shared out again from the pause's end, so errors do not pile up over a long script. Use an aligner
 * (a transcription) where captions must be exact.
 */
export function estimateWords(text: string, from: number, to: number, pauses: ReadonlyArray<{ start: number; end: number }> = []): TimedWord[] {
  const words = wordTokens(text).map((w) => w.text)
  const out: TimedWord[] = []
  let done = 0
  let t = from
  while (done < words.length) {
    const rest = share(words.slice(done), t, to)
    const tolerance = Math.max(0.3, 0.08 * (to - t))
    const open = pauses.filter((p) => p.start > t && p.end < to)
    const breaks = rest.flatMap((w, k) => (k < rest.length - 1 && pauseAfter(w.text) > 1 ? [k] : []))
    const closest = <T>(xs: T[], at: (x: T) => number, target: number) =>
      xs.reduce<T | undefined>((a, x) => (a === undefined || Math.abs(at(x) - target) < Math.abs(at(a) - target) ? x : a), undefined)
    let anchored = false
    for (const k of breaks) {
      // Only a pause and a break nearest to each other: a comma read without a pause must not take the sentence's.
      const near = closest(open, (p) => p.start, rest[k]!.end)
      if (!near || Math.abs(near.start - rest[k]!.end) > tolerance || closest(breaks, (b) => rest[b]!.end, near.start) !== k) continue
      out.push(...share(words.slice(done, done + k + 1), t, near.start))
      done += k + 1
      t = near.end
      anchored = true
      break
    }
    if (!anchored) {
      out.push(...rest)
      break
    }
  }
  return out
}

export const round = (s: number) => Math.round(s * 1000) / 1000
