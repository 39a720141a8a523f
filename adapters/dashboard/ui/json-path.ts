import { findNodeAtLocation, parseTree, type Node } from 'jsonc-parser'
import { jsonSyntaxError } from './json-error'

/** `timeline.tracks[0].clips[1]["odd key"]` → ['timeline', 'tracks', 0, 'clips', 1, 'odd key'] (the API's path format). */
export function splitPath(path: string): (string | number)[] {
  const out: (string | number)[] = []
  const re = /([^.[\]]+)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/g
  for (let m = re.exec(path); m; m = re.exec(path)) out.push(m[1] ?? (m[2] !== undefined ? Number(m[2]) : JSON.parse(m[3]!)))
  return out
}

export interface Place {
  offset: number
  length: number
  /** 1-based line of `offset`. */
  line: number
}

const lineAt = (text: string, offset: number) => text.slice(0, offset).split('\n').length

/**
 * Where an issue's path is in the JSON text: the value at the path, or — for a missing field — the deepest
 * part of the path that exists (the object that lacks it). Undefined when the text does not parse.
 */
export function locate(text: string, path: string): Place | undefined {
  const tree = parseTree(text)
  if (!tree) return undefined
  const segments = splitPath(path)
  for (let n = segments.length; n >= 0; n--) {
    const node: Node | undefined = findNodeAtLocation(tree, segments.slice(0, n))
    if (!node) continue
    // A property's value: point at the whole `"key": value` pair, so the key is selected too.
    const at = node.parent?.type === 'property' ? node.parent : node
    return { offset: at.offset, length: at.length, line: lineAt(text, at.offset) }
  }
  return undefined
}

/**
 * The text's JSON syntax error with its line, in words ("unexpected end of input at line 12, column 3"): the
 * first one JSON.parse meets, since what follows a syntax error is often no error of its own.
 */
export function syntaxErrors(text: string): { line: number; offset: number; message: string }[] {
  const e = jsonSyntaxError(text)
  return e ? [{ offset: e.offset, line: e.line, message: `JSON syntax error: ${e.message}` }] : []
}
