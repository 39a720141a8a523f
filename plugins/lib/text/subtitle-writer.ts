import type { TimedWord } from '../../../core/index.js'

/** How words are grouped into cues. The defaults follow common broadcast caption rules (BBC, Netflix). */
export interface CueRules {
  /** Characters per line (default 42). */
  maxChars?: number
  /** Lines per cue (default 2). */
  maxLines?: number
  /** Longest a cue stays on screen, in seconds (default 5). */
  maxSeconds?: number
  /** A silence longer than this (seconds) starts a new cue, so a caption never hangs over a pause (default 0.5). */
  pause?: number
}

/** One caption: its lines and the words in it, shown from the first word's start to the last word's end. */
export interface WordCue {
  start: number
  end: number
  lines: string[]
  words: TimedWord[]
}

/** Words wrapped greedily into lines of at most `max` characters (a longer word gets a line of its own). */
function wrap(words: readonly string[], max: number): string[] {
  const lines: string[] = []
  for (const w of words) {
    const last = lines.at(-1)
    if (last !== undefined && last.length + 1 + w.length <= max) lines[lines.length - 1] = `${last} ${w}`
    else lines.push(w)
  }
  return lines
}

/**
 * Words grouped into cues: a cue ends at a sentence end, before a pause, or where one more word would make it
 * too long to read (lines, characters, seconds). Times are the words' own, so a cue appears when its first word
 * is said and leaves when its last word ends.
 */
export function cuesFromWords(words: readonly TimedWord[], rules: CueRules = {}): WordCue[] {
  const maxChars = rules.maxChars ?? 42
  const maxLines = rules.maxLines ?? 2
  const maxSeconds = rules.maxSeconds ?? 5
  const pause = rules.pause ?? 0.5
  const cues: WordCue[] = []
  let cur: TimedWord[] = []
  const flush = () => {
    if (cur.length)
      cues.push({
        start: cur[0]!.start,
        end: Math.max(cur.at(-1)!.end, cur[0]!.start),
        lines: wrap(
          cur.map((w) => w.text),
          maxChars,
        ),
        words: cur,
      })
    cur = []
  }
  for (const word of words) {
    const text = word.text.trim()
    if (!text) continue
    const w = { ...word, text }
    const prev = cur.at(-1)
    if (
      prev &&
      (w.start - prev.end > pause ||
        /[.!?…]["')\]]*$/.test(prev.text) ||
        w.end - cur[0]!.start > maxSeconds ||
        wrap(
          [...cur, w].map((x) => x.text),
          maxChars,
        ).length > maxLines)
    )
      flush()
    cur.push(w)
  }
  flush()
  // Cues never overlap: a word said before the previous one ended (a vendor's rounding) cuts that cue short.
  for (let i = 1; i < cues.length; i++) cues[i - 1]!.end = Math.max(cues[i - 1]!.start, Math.min(cues[i - 1]!.end, cues[i]!.start))
  return cues
}

/** `HH:MM:SS` and milliseconds after `sep` (`,` in SRT, `.` in WebVTT). */
function clock(seconds: number, sep: ',' | '.'): string {
  const ms = Math.max(0, Math.round(seconds * 1000))
  const two = (n: number) => String(n).padStart(2, '0')
  return `${two(Math.floor(ms / 3_600_000))}:${two(Math.floor(ms / 60_000) % 60)}:${two(Math.floor(ms / 1000) % 60)}${sep}${String(ms % 1000).padStart(3, '0')}`
}

/** SubRip: numbered cues, `,` before the milliseconds, text as is (SRT has no escaping). */
export function toSrt(words: readonly TimedWord[], rules?: CueRules): string {
  return cuesFromWords(words, rules)
    .map((c, i) => `${i + 1}\n${clock(c.start, ',')} --> ${clock(c.end, ',')}\n${c.lines.join('\n')}\n`)
    .join('\n')
}

/** WebVTT: the `WEBVTT` header, `.` before the milliseconds, and `&`, `<`, `>` escaped as the format requires. */
export function toVtt(words: readonly TimedWord[], rules?: CueRules): string {
  const escaped = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
  const cues = cuesFromWords(words, rules).map((c) => `${clock(c.start, '.')} --> ${clock(c.end, '.')}\n${c.lines.map(escaped).join('\n')}\n`)
  return ['WEBVTT\n', ...cues].join('\n')
}
