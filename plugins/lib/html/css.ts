/**
 * CSS text helpers for the html asset. Shotstack writes 8-digit hex colours alpha-first (`#AARRGGBB`, so
 * `#77000000` is a translucent black shadow), where CSS reads `#RRGGBBAA`; they are rewritten as rgba().
 */
export function alphaFirstHex(css: string): string {
  return css.replace(/#([0-9a-f]{8})\b/gi, (_, hex: string) => {
    const n = (i: number) => parseInt(hex.slice(i, i + 2), 16)
    return `rgba(${n(2)}, ${n(4)}, ${n(6)}, ${+(n(0) / 255).toFixed(3)})`
  })
}

/** Parses a `style` attribute into camelCased declarations (quotes and parentheses respected). */
export function parseStyle(style: string | undefined): Record<string, string> {
  const out: Record<string, string> = {}
  if (!style) return out
  let depth = 0,
    quote = '',
    start = 0
  const decls: string[] = []
  for (let i = 0; i <= style.length; i++) {
    const ch = style[i]
    if (quote) {
      if (ch === quote) quote = ''
    } else if (ch === '"' || ch === "'") quote = ch
    else if (ch === '(') depth++
    else if (ch === ')') depth--
    else if ((ch === ';' || ch === undefined) && depth === 0) {
      decls.push(style.slice(start, i))
      start = i + 1
    }
  }
  for (const decl of decls) {
    const colon = decl.indexOf(':')
    if (colon < 0) continue
    const prop = decl.slice(0, colon).trim().toLowerCase()
    const value = decl
      .slice(colon + 1)
      .replace(/!important/i, '')
      .trim()
    if (!prop || !value || prop.startsWith('--')) continue
    out[prop.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())] = value
  }
  return out
}

/** `font-weight` as a number (normal 400, bold 700, bolder/lighter relative to 400). */
export function weightOf(value: string | undefined, inherited = 400): number {
  if (!value) return inherited
  const v = value.trim().toLowerCase()
  if (v === 'normal') return 400
  if (v === 'bold') return 700
  if (v === 'bolder') return Math.min(900, inherited + 300)
  if (v === 'lighter') return Math.max(100, inherited - 300)
  const n = Number(v)
  return Number.isFinite(n) ? Math.min(900, Math.max(100, n)) : inherited
}

/** The family names of a `font-family` list, unquoted, in order. */
export function familiesOf(value: string): string[] {
  return value
    .split(',')
    .map((f) =>
      f
        .trim()
        .replace(/^["']|["']$/g, '')
        .trim(),
    )
    .filter(Boolean)
}

/**
 * `@import` rules removed (juice never loads them, and one left in a `<style>` stops juice applying the rest
 * of that sheet), with one warning.
 */
export function withoutImports(css: string, warn: (m: string) => void): string {
  const out = css.replace(/@import\b(?:[^;"'<]|"[^"]*"|'[^']*')*;?/gi, '')
  if (out !== css) warn('@import is not loaded in html assets (put the CSS in the asset\'s "css")')
  return out
}

/**
 * Declarations with their `url(…)` images taken out: satori would fetch a URL, read a path or fail the whole
 * render on bad data, and html assets load nothing. `background: url(x) red` keeps its red; a declaration
 * left with nothing is dropped.
 */
export function withoutUrls(style: Record<string, string>, warn: (m: string) => void): Record<string, string> {
  for (const [prop, value] of Object.entries(style)) {
    if (!/url\(/i.test(value)) continue
    warn('images in CSS (url(…)) are not loaded in html assets (use an image clip)')
    const rest = stripUrls(value)
      .replace(/\s*,(\s*,)+/g, ',')
      .replace(/^[\s,]+|[\s,]+$/g, '')
    if (rest) style[prop] = rest
    else delete style[prop]
  }
  return style
}

/** Removes every `url(…)` token, its quotes and any `)` inside them respected. */
function stripUrls(value: string): string {
  let out = ''
  let i = 0
  const next = /url\(/gi
  for (let m = next.exec(value); m; m = next.exec(value)) {
    out += value.slice(i, m.index)
    let j = m.index + 4,
      quote = ''
    for (; j < value.length; j++) {
      const ch = value[j]
      if (quote) quote = ch === quote ? '' : quote
      else if (ch === '"' || ch === "'") quote = ch
      else if (ch === ')') break
    }
    i = next.lastIndex = j + 1
  }
  return out + value.slice(i)
}
