import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { pickerColour } from '../../adapters/dashboard/ui/editor/picker-colour.js'

// The inspector's colour swatch shows what the renderer draws: Shotstack's alpha-first #aarrggbb, CSS names, and
// nothing set (undefined: the swatch says so instead of showing black).

test('the #rrggbb a colour picker takes, for every colour the schema accepts', () => {
  assert.is(pickerColour('#abc'), '#aabbcc')
  assert.is(pickerColour('#FF8800'), '#ff8800')
  assert.is(pickerColour('#80ff0000'), '#ff0000', "Shotstack's #aarrggbb: the alpha comes first")
  assert.is(pickerColour('#8f00'), '#ff0000', 'and #argb')
  assert.is(pickerColour('rebeccapurple'), '#663399')
  assert.is(pickerColour(' DarkSlateGrey '), '#2f4f4f')
  assert.is(pickerColour('rgb(255, 136, 0)'), '#ff8800')
  assert.is(pickerColour(undefined), undefined, 'not set')
  assert.is(pickerColour('{{ BRAND }}'), undefined, 'a placeholder: not a colour yet')
})

test.run()
