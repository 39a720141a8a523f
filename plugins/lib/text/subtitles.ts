/** One subtitle: seconds and text (lines joined with a newline). */
export interface Cue {
  start: number
  end: number
  text: string
}

const TIME = /(?:(\d+):)?(\d{1,2}):(\d{2})[.,](\d{1,3})/

function seconds(s: string): number {
  const m = TIME.exec(s)
  if (!m) return NaN
  return Number(m[1] ?? 0) * 3600 + Number(m[2]) * 60 + Number(m[3]) + Number(m[4]!.padEnd(3, '0')) / 1000
}

/** Parses SRT or WebVTT (cue settings, NOTE and STYLE blocks and markup tags are ignored). */
export function parseSubtitles(source: string): Cue[] {
  const cues: Cue[] = []
  for (const block of source
    .replace(/\r/g, '')
    .replace(/^\uFEFF/, '')
    .split(/\n{2,}/)) {
    const lines = block.split('\n').filter((l) => l.trim() !== '')
    const at = lines.findIndex((l) => l.includes('-->'))
    if (at < 0) continue
    const [a, b] = lines[at]!.split('-->')
    const start = seconds(a!),
      end = seconds(b!)
    if (!Number.isFinite(start) || !Number.isFinite(end)) continue
    const text = lines
      .slice(at + 1)
      .join('\n')
      .replace(/<[^>]+>/g, '')
      .trim()
    if (text) cues.push({ start, end, text })
  }
  return cues.sort((x, y) => x.start - y.start)
}

/** Cues for a spoken text: sentences in order, each lasting in proportion to its length. */
export function cuesFromSpeech(text: string, duration: number): Cue[] {
  const sentences =
    text
      .match(/[^.!?\n]+[.!?]*/g)
      ?.map((s) => s.trim())
      .filter(Boolean) ?? []
  const total = sentences.reduce((n, s) => n + s.length, 0) || 1
  let t = 0
  return sentences.map((s) => {
    const d = (s.length / total) * duration
    const cue = { start: t, end: t + d, text: s }
    t += d
    return cue
  })
}

/** The cue showing at `t`, if any. */
export const cueAt = (cues: readonly Cue[], t: number) => cues.find((c) => t >= c.start && t < c.end)

/** TTML/DFXP clock times: `00:00:01.500`, `1.5s`, `1500ms`, `90f` is not supported (frames need a rate). */
function ttmlTime(s: string | undefined): number {
  if (!s) return NaN
  const unit = /^([\d.]+)(h|m|s|ms)$/.exec(s.trim())
  if (unit) return Number(unit[1]) * { h: 3600, m: 60, s: 1, ms: 0.001 }[unit[2] as 'h' | 'm' | 's' | 'ms']
  return seconds(s.includes('.') || s.includes(',') ? s : `${s}.000`)
}

/** Parses the `<p begin end>` paragraphs of a TTML or DFXP document (`<br/>` becomes a newline). */
export function parseTtml(source: string): Cue[] {
  const cues: Cue[] = []
  for (const m of source.matchAll(/<p\b([^>]*)>([\s\S]*?)<\/p>/g)) {
    const attr = (name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(m[1]!)?.[1]
    const start = ttmlTime(attr('begin'))
    const end = attr('end') !== undefined ? ttmlTime(attr('end')) : start + ttmlTime(attr('dur'))
    const text = m[2]!
      .replace(/<br\s*\/?>/g, '\n')
      .replace(/<[^>]+>/g, '')
      .replace(/&amp;/g, '&')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .trim()
    if (Number.isFinite(start) && Number.isFinite(end) && text) cues.push({ start, end, text })
  }
  return cues.sort((x, y) => x.start - y.start)
}
