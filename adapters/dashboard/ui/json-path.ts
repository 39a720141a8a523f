import { findNodeAtLocation, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser'

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

/** JSON syntax errors with their lines (jsonc-parser is lenient, so comments and trailing commas are refused here too). */
export function syntaxErrors(text: string): { line: number; offset: number; message: string }[] {
  const errors: ParseError[] = []
  parseTree(text, errors, { allowTrailingComma: false, disallowComments: true })
  return errors.map((e) => ({ offset: e.offset, line: lineAt(text, e.offset), message: `JSON syntax: ${printParseErrorCode(e.error)}` }))
}
