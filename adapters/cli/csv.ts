/**
 * RFC 4180 CSV: a header row of names, then one record per row; quoted fields may hold commas, quotes ("")
 * and line breaks. Blank lines are skipped. Each record becomes `{name: value}`.
 */
export function parseCsv(text: string): Record<string, string>[] {
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  const s = text.replace(/^\uFEFF/, '')
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!
    if (quoted) {
      if (c === '"' && s[i + 1] === '"') (field += '"'), i++
      else if (c === '"') quoted = false
      else field += c
    } else if (c === '"' && field === '') quoted = true
    else if (c === ',') row.push(field), (field = '')
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && s[i + 1] === '\n') i++
      row.push(field), rows.push(row), (row = []), (field = '')
    } else field += c
  }
  if (quoted) throw new Error('the CSV ends inside a quoted field')
  if (field !== '' || row.length) row.push(field), rows.push(row)
  const [header, ...records] = rows.filter((r) => r.some((f) => f.trim() !== ''))
  if (!header) throw new Error('the CSV has no header row')
  const names = header.map((h) => h.trim())
  return records.map((r, n) => {
    if (r.length !== names.length) throw new Error(`CSV row ${n + 2} has ${r.length} fields; the header names ${names.length}`)
    return Object.fromEntries(names.map((name, k) => [name, r[k]!]))
  })
}
