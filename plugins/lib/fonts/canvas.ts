import { GlobalFonts } from '@napi-rs/canvas'
import type { FontFace } from '../../../core/index.js'

const registered = new Map<string, string>()

/**
 * The canvas family name under which `face`'s file is registered (once per process). Each file gets its
 * own alias, so the exact file chosen by the font book is the one drawn — no second matching by canvas.
 */
export function canvasFamily(face: FontFace): string {
  let alias = registered.get(face.path)
  if (!alias) {
    alias = `reelforge-${registered.size}`
    if (!GlobalFonts.registerFromPath(face.path, alias)) throw new Error(`cannot load font file ${face.path}`)
    registered.set(face.path, alias)
  }
  return alias
}

/** A CSS font shorthand for canvas drawing with `face` at `px` pixels. */
export function canvasFont(face: FontFace, px: number): string {
  return `${face.style === 'italic' ? 'italic ' : ''}${face.weight} ${px}px "${canvasFamily(face)}"`
}
