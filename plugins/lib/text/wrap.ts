/** Measures a run of text in pixels (canvas `measureText().width`). */
export type Measure = (text: string) => number

/**
 * Breaks text into lines no wider than `maxWidth`: explicit newlines first, then at spaces; a single word
 * wider than the line is split by characters so nothing ever overflows its box.
 */
export function wrapText(text: string, maxWidth: number, measure: Measure): string[] {
  const lines: string[] = []
  // Control characters draw nothing, and skia refuses strings holding NUL ("Convert String to CString failed").
  const printable = text.replace(/\t/g, ' ').replace(/[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f]/g, '')
  for (const paragraph of printable.split(/\r?\n/)) {
    let line = ''
    for (const word of paragraph.split(/ +/)) {
      const candidate = line ? `${line} ${word}` : word
      if (measure(candidate) <= maxWidth || !line) {
        line = candidate
      } else {
        lines.push(line)
        line = word
      }
      // A word longer than the whole line: cut it where it stops fitting, until the rest fits.
      if (measure(line) > maxWidth)
        for (let cut = fitting(line, maxWidth, measure); cut < line.length; cut = fitting(line, maxWidth, measure)) {
          lines.push(line.slice(0, cut))
          line = line.slice(cut)
        }
    }
    lines.push(line)
  }
  return lines
}

/**
 * How many leading characters of `s` fit in `maxWidth`: all of them when `s` does, else the longest prefix that
 * does, or 1 when none does. A prefix is never narrower than a shorter one, so the length is galloped to, then
 * bisected: O(log n) measures of about a line each, the rest of a long word never measured whole. Stepping down
 * from the whole word instead measured it again for every character of every line — cubic: a 4,000-character
 * prompt (the limit) measured half a billion characters and held an API server's thread for most of a minute.
 */
function fitting(s: string, maxWidth: number, measure: Measure): number {
  let fits = 1
  let wide = 2
  while (wide < s.length && measure(s.slice(0, wide)) <= maxWidth) (fits = wide), (wide *= 2)
  if (wide >= s.length) {
    if (measure(s) <= maxWidth) return s.length
    wide = s.length
  }
  while (wide - fits > 1) {
    const mid = (fits + wide) >> 1
    if (measure(s.slice(0, mid)) <= maxWidth) fits = mid
    else wide = mid
  }
  return fits
}
