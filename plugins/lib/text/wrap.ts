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
      // A word longer than the whole line: cut it.
      while (measure(line) > maxWidth && line.length > 1) {
        let cut = line.length - 1
        while (cut > 1 && measure(line.slice(0, cut)) > maxWidth) cut--
        lines.push(line.slice(0, cut))
        line = line.slice(cut)
      }
    }
    lines.push(line)
  }
  return lines
}
