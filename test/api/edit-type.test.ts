// `renderer.render(edit)` type-checks an edit literal. The checks here are the compiler's: CI's typecheck
// (`npm run typecheck`) fails when a `@ts-expect-error` below stops being an error, i.e. when the type loosens.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { createRenderer, type Edit } from '../../index.js'
import type { EditInput } from '../../core/schema/edit.js'

const title: Edit = {
  timeline: { background: '#000000', tracks: [{ clips: [{ asset: { type: 'title', text: 'Hi' }, start: 0, length: 2, transition: { in: 'fade' } }] }] },
  output: { format: 'mp4', resolution: 'hd' },
}

// The written-out Edit (core/schema/edit-type.ts) is the schema's own input type, both ways; when the schema
// changes, this stops compiling until `npm run gen:types` writes it again.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
export const sameAsSchema: Same<Edit, EditInput> = true

// Never called: only compiled.
export async function typed() {
  const renderer = createRenderer()
  await renderer.render(title, { out: 'out/x.mp4' })
  await renderer.render(
    { timeline: { tracks: [{ clips: [{ asset: { type: 'image', src: 'https://example.com/a.png' }, start: 'auto', length: 'end', fit: 'cover' }] }] } },
    { out: 'x.mp4' },
  )
  // @ts-expect-error — an unknown output format
  await renderer.render({ timeline: title.timeline, output: { format: 'avi' } }, { out: 'x.avi' })
  // @ts-expect-error — a clip needs a length
  await renderer.render({ timeline: { tracks: [{ clips: [{ asset: { type: 'title', text: 'x' }, start: 0 }] }] } }, { out: 'x.mp4' })
  // @ts-expect-error — no timeline
  await renderer.render({ output: { format: 'mp4' } }, { out: 'x.mp4' })
  // @ts-expect-error — fit is one of four words
  await renderer.render({ timeline: { tracks: [{ clips: [{ asset: { type: 'title', text: 'x' }, start: 0, length: 1, fit: 'stretch' }] }] } }, { out: 'x.mp4' })
}

test('a typed edit is also a valid edit at run time', () => {
  const { warnings } = createRenderer().validate(title)
  assert.equal(warnings, [])
})

test.run()
