import { parseTree, type ParseError } from 'jsonc-parser'

/** A JSON syntax error in words, with where it is: `offset` into the text, 1-based `line` and `column`. */
export interface JsonSyntaxError {
  /** "unexpected end of input at line 12, column 3" */
  message: string
  /** What is wrong, without the place: "unexpected end of input". */
  what: string
  offset: number
  line: number
  column: number
}

const place = (text: string, offset: number) => {
  const before = text.slice(0, offset)
  return { line: before.split('\n').length, column: offset - before.lastIndexOf('\n') }
}
const offsetOf = (text: string, line: number, column: number) => {
  const lines = text.split('\n')
  let at = 0
  for (let n = 0; n < line - 1 && n < lines.length; n++) at += lines[n]!.length + 1
  return at + column - 1
}

/**
 * JSON.parse's error on `text`, said in words and placed. Engines word it differently: V8 (Chromium, Node)
 * "… in JSON at position 345 (line 12 column 3)", older V8 without the line, "Unexpected token '}', "…" is not
 * valid JSON" with no place at all, Firefox "JSON.parse: … at line 12 column 3 of the JSON data", Safari "JSON
 * Parse error: Unexpected EOF". Where the engine gives no place, jsonc-parser's first error says where to look.
 */
export function locateJsonError(err: Error, text: string): JsonSyntaxError {
  const raw = err.message
  const token = /Unexpected token (?:'(.)'|(\S))/.exec(raw)
  const atEnd = /end of (JSON )?(input|data)|EOF/i.test(raw)
  let what = raw
    .replace(/^JSON(\.parse:| Parse error:) /, '')
    .replace(/ at line \d+ column \d+ of the JSON data$/, '')
    .replace(/ in JSON at position \d+.*$/s, '')
    .replace(/^Unexpected non-whitespace character after JSON$/, 'unexpected text after the end of the JSON')
  if (token) what = `unexpected '${token[1] ?? token[2]}'`
  if (atEnd) what = 'unexpected end of input'
  what = what.charAt(0).toLowerCase() + what.slice(1)

  const position = /at position (\d+)/.exec(raw)
  const lineColumn = /line (\d+) column (\d+)/.exec(raw)
  let offset: number
  if (position) offset = Number(position[1])
  else if (lineColumn) offset = offsetOf(text, Number(lineColumn[1]), Number(lineColumn[2]))
  // The end of what was written, not of the blank lines after it.
  else if (atEnd) offset = text.trimEnd().length
  else {
    const errors: ParseError[] = []
    parseTree(text, errors, { allowTrailingComma: false, disallowComments: true })
    const first = errors[0]?.offset ?? 0
    // V8 stops at the token it names; jsonc-parser's first complaint is at it or just before (`tru}`).
    const found = token ? text.indexOf(token[1] ?? token[2]!, first) : -1
    offset = found >= 0 ? found : first
  }
  offset = Math.min(Math.max(0, offset), text.length)
  const { line, column } = place(text, offset)
  return { message: `${what} at line ${line}, column ${column}`, what, offset, line, column }
}

/** "unexpected end of input at line 12, column 3" for JSON.parse's error on `text`. */
export const describeJsonError = (err: unknown, text: string): string => locateJsonError(err as Error, text).message

/** The first syntax error in `text` (as this browser's JSON.parse finds it), or undefined when it parses. */
export function jsonSyntaxError(text: string): JsonSyntaxError | undefined {
  try {
    JSON.parse(text)
    return undefined
  } catch (err) {
    return locateJsonError(err as Error, text)
  }
}
