import { readFileSync } from 'node:fs'
import type { FontBook, FontFace } from '../../../core/index.js'
import { familiesOf } from './css.js'
import type { VNode } from './dom.js'

/** CSS generic families mapped to built-in faces. */
const GENERIC: Record<string, string> = {
  'sans-serif': 'Open Sans',
  'system-ui': 'Open Sans',
  serif: 'Playfair Display',
  monospace: 'Roboto',
  cursive: 'Caveat',
  fantasy: 'Permanent Marker',
}

const fileCache = new Map<string, Buffer>()
const read = (path: string) => {
  let data = fileCache.get(path)
  if (!data) fileCache.set(path, (data = readFileSync(path)))
  return data
}

export interface SatoriFont {
  name: string
  data: Buffer
  weight: 100 | 200 | 300 | 400 | 500 | 600 | 700 | 800 | 900
  style: 'normal' | 'italic'
}

/**
 * Resolves every `font-family` in the tree through the font book, rewriting each to a private name
 * (`f0`, `f1`…) bound to the faces it resolved to, and returns the fonts satori needs. A weight-named
 * family ("Montserrat ExtraBold") binds that one face; a plain family binds all its weights so
 * `font-weight` picks among them. Unknown families fall back to the default with a warning.
 */
export function bindFonts(tree: VNode[], rootFamily: string | undefined, book: FontBook, warn: (m: string) => void): { fonts: SatoriFont[]; rootName: string } {
  const bound = new Map<string, string>()
  const fonts: SatoriFont[] = []
  const bind = (value: string): string => {
    let name = bound.get(value)
    if (name) return name
    name = `f${bound.size}`
    bound.set(value, name)
    let faces: FontFace[] | undefined
    for (const family of familiesOf(value)) {
      faces = facesFor(GENERIC[family.toLowerCase()] ?? family, book)
      if (faces) break
    }
    if (!faces) {
      const fallback = book.resolve(undefined).face.family
      warn(`font "${familiesOf(value).join(', ')}" is not available; using "${fallback}"`)
      faces = facesFor(fallback, book)!
    }
    for (const f of faces) fonts.push({ name, data: read(f.path), weight: clampWeight(f.weight), style: f.style })
    return name
  }
  const walk = (nodes: VNode[]) => {
    for (const n of nodes) {
      if (typeof n === 'string') continue
      const family = n.props.style.fontFamily
      if (typeof family === 'string') n.props.style.fontFamily = bind(family)
      if (n.props.children) walk(n.props.children)
    }
  }
  walk(tree)
  const rootName = bind(rootFamily ?? book.resolve(undefined).face.family)
  return { fonts, rootName }
}

function facesFor(family: string, book: FontBook): FontFace[] | undefined {
  const all = book.faces()
  const direct = all.filter((f) => sameFamily(f.family, family))
  if (direct.length) return direct
  const one = book.match(family)
  return one
    ? [
        { ...one, weight: 400 },
        { ...one, weight: 700 },
      ]
    : undefined
}

const sameFamily = (a: string, b: string) => a.toLowerCase().replace(/["'\s_-]/g, '') === b.toLowerCase().replace(/["'\s_-]/g, '')
const clampWeight = (w: number) => Math.min(900, Math.max(100, Math.round(w / 100) * 100)) as SatoriFont['weight']
