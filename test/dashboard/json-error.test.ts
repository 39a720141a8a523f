import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { describeJsonError, jsonSyntaxError, locateJsonError } from '../../adapters/dashboard/ui/json-error.js'

// JSON.parse's errors, as each engine words them, turned into one sentence with a line and a column.

const test = suite('dashboard JSON syntax errors in words')
const edit = '{\n  "timeline": {\n    "tracks": []\n  }\n  "output": {}\n}'

test("Chromium's wording: position and line/column in the message become words at that line and column", () => {
  const err = new Error(`Expected ',' or '}' after property value in JSON at position 41 (line 5 column 3)`)
  assert.is(describeJsonError(err, edit), "expected ',' or '}' after property value at line 5, column 3")
  assert.equal(locateJsonError(err, edit).offset, 41)
})

test("Node 20's wording (a position only): the line and column are computed from it", () => {
  const err = new Error(`Expected ',' or '}' after property value in JSON at position 41`)
  const e = locateJsonError(err, edit)
  assert.equal([e.line, e.column, e.what], [5, 3, "expected ',' or '}' after property value"])
  assert.is(edit[e.offset], '"', 'the offset points at the unexpected "output"')
})

test('the end of input is placed after the last thing written, not after trailing blank lines', () => {
  const text = '{\n  "a": [\n    1,\n  \n\n'
  const msg = describeJsonError(new Error('Unexpected end of JSON input'), text)
  assert.is(msg, 'unexpected end of input at line 3, column 7')
  assert.not.match(msg, /JSON input|position/)
})

test("V8's 'Unexpected token' without a place: found at the named token", () => {
  const text = '{\n  "a": tru}'
  const e = locateJsonError(new Error(`Unexpected token '}', "{\n  "a": tru}" is not valid JSON`), text)
  assert.equal([e.message, text[e.offset]], ["unexpected '}' at line 2, column 11", '}'])
  const old = locateJsonError(new Error('Unexpected token ] in JSON at position 3'), '[1,]')
  assert.is(old.message, "unexpected ']' at line 1, column 4")
})

test("Firefox's and Safari's wordings", () => {
  const ff = locateJsonError(new Error('JSON.parse: expected double-quoted property name at line 2 column 3 of the JSON data'), '{\n  ,}')
  assert.equal([ff.message, ff.offset], ['expected double-quoted property name at line 2, column 3', 4])
  assert.is(describeJsonError(new Error('JSON Parse error: Unexpected EOF'), '{"a":'), 'unexpected end of input at line 1, column 6')
})

test("this engine's own JSON.parse, end to end; valid JSON has no error", () => {
  assert.is(jsonSyntaxError('{"a": 1}'), undefined)
  for (const [text, line, column] of [
    [edit, 5, 3],
    ['{\n  "a": 1,\n}', 3, 1],
    ['[1, 2', 1, 6],
    ['', 1, 1],
  ] as const) {
    const e = jsonSyntaxError(text)!
    assert.ok(e, `${JSON.stringify(text)} does not parse`)
    assert.equal([e.line, e.column], [line, column], `${JSON.stringify(text)}: ${e.message}`)
    assert.match(e.message, new RegExp(` at line ${line}, column ${column}$`))
    assert.not.match(e.message, /position|JSON input/)
  }
})

test.run()
