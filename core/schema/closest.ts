/** Edit distance (insertions, deletions, substitutions), case-insensitive. */
function distance(a: string, b: string): number {
  const x = a.toLowerCase()
  const y = b.toLowerCase()
  let row = Array.from({ length: y.length + 1 }, (_, j) => j)
  for (let i = 1; i <= x.length; i++) {
    const next = [i]
    for (let j = 1; j <= y.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1))
    row = next
  }
  return row[y.length]!
}

/**
 * The known names to offer for an unknown one: all of a short list; of a long one (about 200 transitions) the
 * closest few — names it begins or is contained in first, then by edit distance — and how many more there are.
 */
export function knownList(value: string, all: readonly string[], show = 6): string {
  if (all.length <= 12) return `known: ${all.join(', ')}`
  // Names are short: a value far longer is like none of them, and comparing all of it (a hostile 200 KB string)
  // would cost seconds. Each name is scored once, not once per comparison of the sort.
  const v = value.slice(0, MAX_NAME).toLowerCase()
  const score = (name: string) => {
    const n = name.toLowerCase()
    return (n.startsWith(v) || v.startsWith(n) ? -100 : n.includes(v) || v.includes(n) ? -50 : 0) + distance(v, n)
  }
  const scored = all.map((name) => ({ name, score: score(name) }))
  const closest = scored.sort((a, b) => a.score - b.score || a.name.localeCompare(b.name)).slice(0, show)
  return `closest known: ${closest.map((c) => c.name).join(', ')} (${all.length - closest.length} more)`
}

/** Characters of an unknown name compared with the known ones (the longest known name is about 30). */
const MAX_NAME = 64

/** The one known name a slip most likely meant (`fromat` → `format`), or undefined when none is close. */
export function nearest(value: string, all: readonly string[]): string | undefined {
  const v = value.slice(0, MAX_NAME)
  const best = all.map((name) => ({ name, d: distance(v, name) })).sort((a, b) => a.d - b.d)[0]
  return best && best.d <= Math.max(1, Math.floor(v.length / 3)) ? best.name : undefined
}
