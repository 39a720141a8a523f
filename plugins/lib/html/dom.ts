import { parseFragment, serializeOuter, type DefaultTreeAdapterMap } from 'parse5'
import { parseStyle, withoutUrls } from './css.js'

type Node = DefaultTreeAdapterMap['childNode']
type Element = DefaultTreeAdapterMap['element']

/** A node satori understands: `{ type, props: { style, children } }` or text. */
export type VNode =
  | string
  | { type: string; props: { style: Record<string, string | number>; children?: VNode[]; src?: string; width?: number; height?: number } }

const BLOCK = new Set([
  'div',
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'section',
  'article',
  'header',
  'footer',
  'main',
  'aside',
  'nav',
  'blockquote',
  'ul',
  'ol',
  'li',
  'pre',
  'figure',
  'figcaption',
  'address',
  'dl',
  'dt',
  'dd',
  'center',
  'body',
  'html',
  'table',
  'tbody',
  'thead',
  'tfoot',
  'tr',
  'td',
  'th',
  'caption',
])
const DROPPED_QUIETLY = new Set(['head', 'title', 'meta', 'style', 'link', 'base', 'noscript', 'template'])
const DROPPED_WITH_WARNING: Record<string, string> = {
  script: 'scripts never run in html assets',
  img: 'images inside html assets are not rendered (use an image clip)',
  iframe: 'iframes are not rendered',
  video: 'video elements are not rendered (use a video clip)',
  audio: 'audio elements are not rendered',
  canvas: 'canvas elements are not rendered',
  object: 'embedded objects are not rendered',
  embed: 'embedded objects are not rendered',
  input: 'form controls are not rendered',
  button: 'form controls are not rendered',
  select: 'form controls are not rendered',
  textarea: 'form controls are not rendered',
}

/** Browser defaults that matter for text layout (em sizes and margins as in the HTML spec's UA sheet). */
const UA: Record<string, Record<string, string>> = {
  h1: { fontSize: '2em', fontWeight: '700', margin: '0.67em 0' },
  h2: { fontSize: '1.5em', fontWeight: '700', margin: '0.83em 0' },
  h3: { fontSize: '1.17em', fontWeight: '700', margin: '1em 0' },
  h4: { fontWeight: '700', margin: '1.33em 0' },
  h5: { fontSize: '0.83em', fontWeight: '700', margin: '1.67em 0' },
  h6: { fontSize: '0.67em', fontWeight: '700', margin: '2.33em 0' },
  p: { margin: '1em 0' },
  blockquote: { margin: '1em 40px' },
  ul: { margin: '1em 0', paddingLeft: '40px' },
  ol: { margin: '1em 0', paddingLeft: '40px' },
  pre: { whiteSpace: 'pre', margin: '1em 0' },
  center: { textAlign: 'center' },
  th: { fontWeight: '700', textAlign: 'center' },
  b: { fontWeight: '700' },
  strong: { fontWeight: '700' },
  i: { fontStyle: 'italic' },
  em: { fontStyle: 'italic' },
  cite: { fontStyle: 'italic' },
  u: { textDecoration: 'underline' },
  ins: { textDecoration: 'underline' },
  s: { textDecoration: 'line-through' },
  strike: { textDecoration: 'line-through' },
  del: { textDecoration: 'line-through' },
  small: { fontSize: '0.83em' },
  big: { fontSize: '1.2em' },
  sub: { fontSize: '0.83em' },
  sup: { fontSize: '0.83em' },
  mark: { backgroundColor: 'yellow', color: 'black' },
}

/**
 * Converts inlined HTML (styles already in `style` attributes) into satori's element tree. Block elements
 * become `display: block` boxes, inline ones spans, tables flex rows; what satori cannot draw (scripts,
 * images, embeds, CSS `url()`s) is dropped with a warning — nothing is ever executed or fetched.
 */
export function toVNodes(html: string, warn: (message: string) => void): VNode[] {
  const warned = new Set<string>()
  const once = (m: string) => warned.has(m) || (warned.add(m), warn(m))
  const convert = (node: Node, listIndex?: { n: number; ordered: boolean }): VNode | VNode[] | null => {
    if (node.nodeName === '#text') return (node as DefaultTreeAdapterMap['textNode']).value
    if (node.nodeName === '#comment' || !('tagName' in node)) return null
    const el = node as Element
    const tag = el.tagName.toLowerCase()
    if (DROPPED_QUIETLY.has(tag)) return null
    if (DROPPED_WITH_WARNING[tag]) return (once(DROPPED_WITH_WARNING[tag]!), null)
    const attrs = Object.fromEntries(el.attrs.map((a) => [a.name.toLowerCase(), a.value]))
    const style: Record<string, string | number> = { ...UA[tag], ...presentational(tag, attrs), ...withoutUrls(parseStyle(attrs.style), once) }
    if (tag === 'svg') return inlineSvg(el, attrs, style)
    if (tag === 'br') return { type: 'div', props: { style: { display: 'flex', width: '100%', height: 0 }, children: [] } }
    if (tag === 'hr')
      return { type: 'div', props: { style: { display: 'flex', borderTop: '1px solid currentColor', margin: '0.5em 0', ...style }, children: [] } }
    const childList = tag === 'ul' || tag === 'ol' ? { n: 0, ordered: tag === 'ol' } : undefined
    let children = el.childNodes.flatMap((c) => {
      const v = convert(c, childList ?? listIndex)
      return v === null ? [] : Array.isArray(v) ? v : [v]
    })
    if (tag === 'li' && listIndex) children = [`${listIndex.ordered ? `${++listIndex.n}.` : '•'} `, ...children]
    if (tag === 'table' || tag === 'tbody' || tag === 'thead' || tag === 'tfoot') (style.display ??= 'flex'), (style.flexDirection ??= 'column')
    else if (tag === 'tr') (style.display ??= 'flex'), (style.flexDirection ??= 'row')
    else if (BLOCK.has(tag)) style.display ??= 'block'
    if (style.display === 'inline' || style.display === 'inline-block') delete style.display
    const isBlock = BLOCK.has(tag) || style.display === 'flex' || style.display === 'block'
    return { type: isBlock ? 'div' : 'span', props: { style, children } }
  }
  return parseFragment(html).childNodes.flatMap((n) => {
    const v = convert(n as Node)
    return v === null ? [] : Array.isArray(v) ? v : [v]
  })
}

/** Old presentational attributes real templates still use (`<table cellpadding>`, `<font color>`, `align`). */
function presentational(tag: string, attrs: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {}
  if (attrs.align) out.textAlign = attrs.align
  if (attrs.bgcolor) out.backgroundColor = attrs.bgcolor
  if (tag === 'font') {
    if (attrs.color) out.color = attrs.color
    if (attrs.face) out.fontFamily = attrs.face
  }
  if ((tag === 'table' || tag === 'td' || tag === 'th') && attrs.cellpadding) out.padding = `${Number(attrs.cellpadding) || 0}px`
  if (attrs.width && /^\d+%?$/.test(attrs.width)) out.width = /%$/.test(attrs.width) ? attrs.width : `${attrs.width}px`
  return out
}

/**
 * Inline `<svg>` becomes an image of its own markup (satori draws `<img>` from a data URI and resvg
 * rasterises it with the rest), sized by its width/height, else its viewBox, else HTML's 300×150.
 */
function inlineSvg(el: Element, attrs: Record<string, string>, style: Record<string, string | number>): VNode {
  let markup = serializeOuter(el)
  if (!/^<svg[^>]*\sxmlns=/.test(markup)) markup = markup.replace(/^<svg/, '<svg xmlns="http://www.w3.org/2000/svg"')
  const box = (attrs.viewbox ?? '').split(/[\s,]+/).map(Number)
  const px = (v: unknown) => (typeof v === 'number' ? v : /^\s*[\d.]+(px)?\s*$/.test(String(v ?? '')) ? parseFloat(String(v)) : undefined)
  const width = px(style.width) ?? px(attrs.width) ?? (box.length === 4 && box[2]! > 0 ? box[2] : 300)!
  const height = px(style.height) ?? px(attrs.height) ?? (box.length === 4 && box[3]! > 0 ? (box[3]! * width) / (box[2] || width) : 150)!
  return {
    type: 'img',
    props: { src: `data:image/svg+xml;base64,${Buffer.from(markup).toString('base64')}`, width, height, style: { ...style, width, height } },
  }
}
