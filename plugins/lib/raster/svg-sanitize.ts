/**
 * Markup never loads a resource on its own. resvg opens any file an `href` names — `<image href="/etc/…">`,
 * `<feImage>`, a relative path — which would let a timeline read the server's disk, and fetches nothing
 * remote. So every `href` (any namespace prefix, any element) that is not an in-document reference (`#id`)
 * or inline data is emptied before resvg sees the markup. Values are judged as written, before XML entities
 * expand, so an entity or character reference that spells a path is dropped too. SVG inside a data URI (how
 * html clips carry inline `<svg>`) is sanitised the same way, recursively.
 */
const HREF = /(\s)((?:[\w.-]+:)?href)(\s*=\s*)(["'])([\s\S]*?)\4/gi
const SVG_DATA = /^data:image\/svg\+xml([^,]*),/i

export function sanitizeSvg(svg: string, depth = 0): string {
  return svg.replace(
    HREF,
    (_all, space: string, name: string, eq: string, quote: string, value: string) => `${space}${name}${eq}${quote}${safeHref(value, depth)}${quote}`,
  )
}

function safeHref(value: string, depth: number): string {
  if (value.startsWith('#')) return value
  const svg = SVG_DATA.exec(value)
  if (svg) {
    if (depth >= 4) return '#'
    const body = value.slice(svg[0].length)
    const inner = /;base64$/i.test(svg[1]!) ? Buffer.from(body, 'base64').toString('utf8') : safeDecode(body)
    return inner === undefined ? '#' : `data:image/svg+xml;base64,${Buffer.from(sanitizeSvg(inner, depth + 1)).toString('base64')}`
  }
  // Raster data URIs carry their own bytes; anything else (paths, file:, http:, entities) is dropped.
  return /^data:image\/(png|jpe?g|gif|webp);/i.test(value) ? value : '#'
}

function safeDecode(s: string): string | undefined {
  try {
    return decodeURIComponent(s)
  } catch {
    return undefined
  }
}
