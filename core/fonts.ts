/** One font file and the face it provides. */
export interface FontFace {
  family: string
  weight: number
  style: 'normal' | 'italic'
  path: string
}

/** The fonts a render can use: built-in families plus those the edit brings (`timeline.fonts`). */
export interface FontBook {
  add(face: FontFace): void
  /** The closest face of `family` (CSS-like weight matching); undefined when the family is unknown. */
  match(family: string, weight?: number, style?: 'normal' | 'italic'): FontFace | undefined
  /** Like `match`, but falls back to the default family; `substituted` says it did. */
  resolve(family: string | undefined, weight?: number, style?: 'normal' | 'italic'): { face: FontFace; substituted: boolean }
  faces(): FontFace[]
  /** A copy that can take more faces without touching this book. */
  fork(): FontBook
}

const WEIGHT_WORDS: Record<string, number> = {
  thin: 100,
  hairline: 100,
  extralight: 200,
  ultralight: 200,
  light: 300,
  regular: 400,
  normal: 400,
  book: 400,
  medium: 500,
  semibold: 600,
  demibold: 600,
  bold: 700,
  extrabold: 800,
  ultrabold: 800,
  black: 900,
  heavy: 900,
}

/** Family names compare without case, spaces, dashes or quotes: "Open Sans" = "OpenSans" = "open-sans". */
export const familyKey = (family: string) => family.toLowerCase().replace(/["'\s_-]/g, '')

/** Splits a weight-named family ("Montserrat ExtraBold") into family and weight. */
export function splitWeightName(family: string): { family: string; weight?: number } {
  const m =
    /^(.*?)[\s-]+(thin|hairline|extra\s*light|ultra\s*light|light|regular|normal|book|medium|semi\s*bold|demi\s*bold|bold|extra\s*bold|ultra\s*bold|black|heavy)$/i.exec(
      family.trim(),
    )
  if (!m) return { family }
  return { family: m[1]!, weight: WEIGHT_WORDS[m[2]!.toLowerCase().replace(/\s/g, '')] }
}

/** Creates a font book; `fallback` is the family used for unknown names. */
export function createFontBook(faces: readonly FontFace[] = [], fallback = 'Open Sans'): FontBook {
  const byFamily = new Map<string, FontFace[]>()
  const book: FontBook = {
    add(face) {
      const key = familyKey(face.family)
      const list = byFamily.get(key) ?? []
      if (!list.some((f) => f.path === face.path && f.weight === face.weight && f.style === face.style)) list.push(face)
      byFamily.set(key, list)
    },
    match(family, weight = 400, style = 'normal') {
      // Variable fonts' named instances carry an optical size ("DM Sans 9pt"); the family is the same.
      family = family.replace(/\s+\d+(\.\d+)?pt$/i, '')
      let list = byFamily.get(familyKey(family))
      if (!list) {
        const split = splitWeightName(family)
        list = byFamily.get(familyKey(split.family.replace(/\s+\d+(\.\d+)?pt$/i, '')))
        if (split.weight) weight = split.weight
      }
      if (!list?.length) return undefined
      const w = Math.min(900, Math.max(100, Math.round(weight / 100) * 100))
      const score = (f: FontFace) => (f.style === style ? 0 : 10_000) + Math.abs(f.weight - w) + (f.weight < w && w > 500 ? 50 : 0)
      return [...list].sort((a, b) => score(a) - score(b))[0]
    },
    resolve(family, weight, style) {
      const face = family ? book.match(family, weight, style) : undefined
      if (face) return { face, substituted: false }
      const fb = book.match(fallback, weight, style) ?? book.faces()[0]
      if (!fb) throw new Error('the font book is empty')
      return { face: fb, substituted: family !== undefined }
    },
    faces: () => [...byFamily.values()].flat(),
    fork: () => createFontBook(book.faces(), fallback),
  }
  for (const f of faces) book.add(f)
  return book
}
