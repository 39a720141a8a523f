import { UsageError } from './edit-options.js'

/**
 * `text` parsed as JSON, or a UsageError (exit 64) that points at the fault the way an editor would: line and
 * column, the line itself, and a caret under the character. Node 20's JSON.parse gives a position only for some
 * faults, so the place is found by `firstFault`, a strict reader run only once JSON.parse has refused the text.
 */
export function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text)
  } catch (e) {
    const fault = firstFault(text)
    if (!fault) throw new UsageError(`${file} is not JSON: ${(e as Error).message}`)
    const lineStart = text.lastIndexOf('\n', fault.at - 1) + 1
    const lineEnd = text.indexOf('\n', fault.at) < 0 ? text.length : text.indexOf('\n', fault.at)
    const line = text.slice(lineStart, lineEnd).replace(/\r$/, '')
    const number = text.slice(0, lineStart).split('\n').length
    const column = fault.at - lineStart + 1
    // A minified edit is one long line: show the 100 characters around the fault, not all of it.
    const from = Math.max(0, column - 60)
    const shown = (from > 0 ? '…' : '') + line.slice(from, from + 100).replace(/\t/g, ' ')
    const caret = (from > 0 ? 1 : 0) + column - 1 - from
    const gutter = ' '.repeat(String(number).length)
    const found = fault.at >= text.length ? 'the end of the file' : JSON.stringify(text[fault.at])
    throw new UsageError(
      `${file} is not JSON: line ${number}, column ${column}: expected ${fault.expected}, found ${found}\n    ${number} | ${shown}\n    ${gutter} | ${' '.repeat(caret)}^`,
    )
  }
}

/** Where strict JSON first goes wrong and what belonged there; undefined if nowhere (or too deep to walk). */
export function firstFault(text: string): { at: number; expected: string } | undefined {
  let i = 0
  const fail = (expected: string): never => {
    throw { at: i, expected }
  }
  const space = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++
  }
  const scalar = () => {
    SCALAR.lastIndex = i
    const m = SCALAR.exec(text)
    if (!m) fail('a value')
    i += m![0].length
  }
  const string = () => {
    for (i++; text[i] !== '"'; i++) {
      if (i >= text.length) fail('a closing "')
      if (text.charCodeAt(i) < 0x20) fail('no line break or control character inside a string (write \\n)')
      if (text[i] !== '\\') continue
      i++
      if (!/^(["\\/bfnrt]|u[0-9a-fA-F]{4})/.test(text.slice(i, i + 5))) fail('an escape: \\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX')
      if (text[i] === 'u') i += 4
    }
    i++
  }
  const list = (close: string, item: () => void) => {
    i++
    space()
    if (text[i] === close) {
      i++
      return
    }
    for (;;) {
      item()
      space()
      if (text[i] === close) break
      if (text[i] !== ',') fail(`"," or "${close}"`)
      i++
    }
    i++
  }
  const member = () => {
    space()
    if (text[i] !== '"') fail('a property name in double quotes')
    string()
    space()
    if (text[i] !== ':') fail('":" after the property name')
    i++
    value()
  }
  const value = (): void => {
    space()
    const c = text[i]
    if (c === '{') list('}', member)
    else if (c === '[') list(']', value)
    else if (c === '"') string()
    else scalar()
  }
  try {
    value()
    space()
    if (i < text.length) fail('the end of the file')
    return undefined
  } catch (e) {
    return e instanceof RangeError ? undefined : (e as { at: number; expected: string })
  }
}

const SCALAR = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?(?![\w.])|true\b|false\b|null\b/y
