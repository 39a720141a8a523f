// `renderer.render(edit)` type-checks an edit literal. The checks here are the compiler's: CI's typecheck
// (`npm run typecheck`) fails when a `@ts-expect-error` below stops being an error, i.e. when the type loosens,
// and when a correctly spelt asset stops compiling, i.e. when it tightens too far.
import { readFileSync } from 'node:fs'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type * as v from 'valibot'
import { createRenderer, type Asset, type AssetTypes, type Edit } from '../../index.js'
import type { EditInput } from '../../core/schema/edit.js'
import type { AssetSchemas } from '../../core/schema/assets.js'
import { editTypeFiles } from '../../scripts/edit-type-source.mjs'

// A plugin author's name, declared the way docs/plugins.md says: the interface merges with reelforge's own.
declare module '../../index.js' {
  interface TransitionNames {
    'test:iris': true
  }
}

const title: Edit = {
  timeline: { background: '#000000', tracks: [{ clips: [{ asset: { type: 'title', text: 'Hi' }, start: 0, length: 2, transition: { in: 'fade' } }] }] },
  output: { format: 'mp4', resolution: 'hd' },
}

// Every typed edit is one the schema takes; every typed asset one its own schema takes. Output formats are compared
// as strings: the schema lists Shotstack's, and a plugin's (custom-output.test.ts declares one) validates beside them.
type Within<A, B> = [A] extends [B] ? true : false
type AnyFormat<E extends { output?: unknown }> = Omit<E, 'output'> & { output?: Omit<NonNullable<E['output']>, 'format'> & { format?: string } }
export const withinSchema: Within<AnyFormat<Edit>, AnyFormat<EditInput>> = true
type Outside = { [K in keyof AssetSchemas]: Within<AssetTypes[K], v.InferInput<AssetSchemas[K]>> extends true ? never : K }[keyof AssetSchemas]
export const assetsWithinSchemas: [Outside] extends [never] ? true : Outside = true

// Each asset type correctly spelt compiles; one field misspelt, it does not.
export const spelt: Asset[] = [
  { type: 'video', src: 'a.mp4', volume: 1 },
  { type: 'image', src: 'a.png', crop: { top: 0.1 } },
  { type: 'audio', src: 'a.mp3', effect: 'fadeIn' },
  { type: 'luma', src: 'm.mp4', trim: 1 },
  { type: 'text-to-image', prompt: 'a cat', width: 512 },
  { type: 'image-to-video', src: 'a.png', prompt: 'zoom' },
  { type: 'text-to-speech', text: 'hi', voice: 'Joanna' },
  { type: 'title', text: 'x', style: 'minimal' },
  { type: 'text', text: 'x', font: { family: 'Montserrat ExtraBold', size: 40 } },
  { type: 'rich-text', text: 'x', font: { family: 'Open Sans' } },
  { type: 'caption', src: 'a.srt', font: { family: 'Roboto' } },
  { type: 'rich-caption', src: 'a.srt', active: { font: { family: 'DM Sans 9pt' } } },
  { type: 'html', html: '<p>x</p>', css: 'p {}' },
  { type: 'html5', html: '<p>x</p>', js: '' },
  { type: 'shape', shape: 'circle', circle: { radius: 10 } },
  { type: 'svg', src: '<svg/>', opacity: 1 },
]
export function misspelt(): Asset[] {
  return [
    // @ts-expect-error — video: volumee
    { type: 'video', src: 'a.mp4', volumee: 1 },
    // @ts-expect-error — image: crops
    { type: 'image', src: 'a.png', crops: { top: 0.1 } },
    // @ts-expect-error — audio: efect
    { type: 'audio', src: 'a.mp3', efect: 'fadeIn' },
    // @ts-expect-error — luma: trimm
    { type: 'luma', src: 'm.mp4', trimm: 1 },
    // @ts-expect-error — text-to-image: prompts
    { type: 'text-to-image', prompts: 'a cat', width: 512 },
    // @ts-expect-error — image-to-video: promt
    { type: 'image-to-video', src: 'a.png', promt: 'zoom' },
    // @ts-expect-error — text-to-speech: voise
    { type: 'text-to-speech', text: 'hi', voise: 'Joanna' },
    // @ts-expect-error — title: styl
    { type: 'title', text: 'x', styl: 'minimal' },
    // @ts-expect-error — text: fonts
    { type: 'text', text: 'x', fonts: { size: 40 } },
    // @ts-expect-error — rich-text: txt
    { type: 'rich-text', txt: 'x' },
    // @ts-expect-error — caption: sorce
    { type: 'caption', src: 'a.srt', sorce: 'b.srt' },
    // @ts-expect-error — rich-caption: activ
    { type: 'rich-caption', src: 'a.srt', activ: {} },
    // @ts-expect-error — html: ccs
    { type: 'html', html: '<p>x</p>', ccs: 'p {}' },
    // @ts-expect-error — html5: javascript
    { type: 'html5', html: '<p>x</p>', javascript: '' },
    // @ts-expect-error — shape: circel
    { type: 'shape', shape: 'circle', circel: { radius: 10 } },
    // @ts-expect-error — svg: opacty
    { type: 'svg', src: '<svg/>', opacty: 1 },
  ]
}

// Names: Shotstack's, the built-in plugins' (gl: transitions), and one a plugin declared above.
const clip = (more: Partial<Edit['timeline']['tracks'][number]['clips'][number]>): Edit => ({
  timeline: { tracks: [{ clips: [{ asset: { type: 'title', text: 'x' }, start: 0, length: 1, ...more }] }] },
})
export const named: Edit[] = [
  clip({ transition: { in: 'slideLeftFast', out: 'gl:cube' }, effect: 'zoomInSlow', filter: 'greyscale' }),
  clip({ transition: { in: 'test:iris' } }),
  // A declared transition's speed variants, as a plugin's `durations` and a GLSL transition give them.
  clip({ transition: { in: 'test:irisSlow', out: 'gl:cubeFast' } }),
  { ...title, output: { format: 'gif' } },
]

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
  // @ts-expect-error — 'titel' is no asset type
  await renderer.render({ timeline: { tracks: [{ clips: [{ asset: { type: 'titel', text: 'x' }, start: 0, length: 1 }] }] } }, { out: 'x.mp4' })
  // @ts-expect-error — 'fadee' is no transition
  await renderer.render(clip({ transition: { in: 'fadee' } }), { out: 'x.mp4' })
  // @ts-expect-error — nor is a gl-transitions name that does not exist
  await renderer.render(clip({ transition: { out: 'gl:cubee' } }), { out: 'x.mp4' })
  // @ts-expect-error — nor a speed that is none of Slow, Fast, VeryFast
  await renderer.render(clip({ transition: { out: 'gl:cubeSlowest' } }), { out: 'x.mp4' })
  // @ts-expect-error — 'zoomInn' is no effect
  await renderer.render(clip({ effect: 'zoomInn' }), { out: 'x.mp4' })
  // @ts-expect-error — 'greyscal' is no filter
  await renderer.render(clip({ filter: 'greyscal' }), { out: 'x.mp4' })
  // @ts-expect-error — 'Montserat' is no font family
  await renderer.render(clip({ asset: { type: 'text', text: 'x', font: { family: 'Montserat' } } }), { out: 'x.mp4' })
}

test('a typed edit is also a valid edit at run time', () => {
  const { warnings } = createRenderer().validate(title)
  assert.equal(warnings, [])
})

test('the typed names are the names a renderer knows: every Edit name in `named` validates', () => {
  for (const edit of named.filter((e) => !JSON.stringify(e).includes('test:iris'))) createRenderer().validate(edit)
})

test('core/schema/edit-*.ts are what `npm run gen:types` writes from the schema and the built-in plugins now', () => {
  for (const [path, text] of Object.entries(editTypeFiles())) assert.ok(readFileSync(path, 'utf8') === text, `${path} is stale: run npm run gen:types`)
})

test.run()
