import { join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import * as v from 'valibot'
import { createRenderer, defineAssetPlugin, defineEffectPlugin, defineFitPlugin, defineTransitionPlugin, RenderError } from '../../index.js'
import { solidPng, tempDir } from '../helpers/media.js'
import { edit } from '../helpers/render.js'

// What a plugin answers is checked where it answers: a `prepare` answering nothing or a size that is not a
// positive width and height, a fit's size of NaN, fail the render as that plugin's, naming the clip and hook — not
// as a bare TypeError later, nor a clip that silently disappears from every frame. A schema that drops `type`
// keeps the clip its asset type; a `pixels` hook that throws is named `pixels`.

const dir = tempDir()
let answer: unknown
const odd = defineAssetPlugin({
  kind: 'asset',
  name: 'odd',
  schema: v.looseObject({ type: v.literal('odd') }),
  prepare: async () => answer as never,
})
const renderer = createRenderer({ plugins: [odd], cacheDir: join(dir, 'cache') })

const none = 'no prepared asset'
for (const [what, value, said] of [
  ['nothing', undefined, none],
  ['a size of NaN', { size: { width: Number.NaN, height: 10 } }, none],
  ['a size of 0', { size: { width: 0, height: 10 } }, none],
  ['no size at all', { static: true }, none],
  ['a size but no open', { size: { width: 10, height: 10 } }, 'a size but no open'],
] as const) {
  test(`prepare answering ${what}: the plugin's failure, naming clip, plugin and hook`, async () => {
    answer = value
    try {
      await renderer.render(edit([{ asset: { type: 'odd' }, start: 0, length: 0.2 }], { fps: 12 }), { out: join(dir, 'odd.mp4') })
      assert.unreachable()
    } catch (e) {
      assert.instance(e, RenderError)
      assert.is((e as RenderError).code, 'E_PLUGIN_FAILED')
      assert.ok((e as Error).message.startsWith(`timeline.tracks[0].clips[0].asset: [asset:odd] prepare: answered ${said}`), (e as Error).message)
    }
  })
}

const still = (extra: object) => ({
  async open(gpu: { texture(p: Uint8Array, w: number, h: number): unknown }) {
    const pixels = new Uint8Array(16 * 16 * 4).fill(255)
    const texture = gpu.texture(pixels, 16, 16)
    return { frame: () => texture, close() {}, ...extra }
  },
})
const noType = defineAssetPlugin({
  kind: 'asset',
  name: 'untyped',
  // v.object, not looseObject, and no `type` entry: the parsed asset comes out without its type.
  schema: v.object({ colour: v.optional(v.string()) }) as never,
  prepare: async () => ({ size: { width: 16, height: 16 }, static: true, ...still({}) }) as never,
})
const badPixels = defineAssetPlugin({
  kind: 'asset',
  name: 'badpixels',
  schema: v.looseObject({ type: v.literal('badpixels') }),
  prepare: async () =>
    ({
      size: { width: 320, height: 180 },
      static: true,
      ...still({
        size: { width: 320, height: 180 },
        opaque: true,
        pixels: () => {
          throw new Error('no pixels today')
        },
      }),
    }) as never,
})
const notTexture = defineAssetPlugin({
  kind: 'asset',
  name: 'nottexture',
  schema: v.looseObject({ type: v.literal('nottexture') }),
  prepare: async () => ({ size: { width: 16, height: 16 }, static: true, ...still({ frame: () => ({ nope: 1 }) }) }) as never,
})
const nanFit = defineFitPlugin({ kind: 'fit', name: 'nanfit', fit: () => ({ width: Number.NaN, height: -5 }) })
const nanFade = defineTransitionPlugin({
  kind: 'transition',
  name: 'nanfade',
  durations: { '': 1 },
  compile: () => ({ apply: (layer, p) => void (layer.opacity *= p > 0.5 ? Number.NaN : p) }),
})
const infiniteZoom = defineEffectPlugin({
  kind: 'effect',
  name: 'infinite',
  compile: () => ({ apply: (layer) => void (layer.zoom = Number.POSITIVE_INFINITY) }),
})
const more = createRenderer({ plugins: [noType, badPixels, notTexture, nanFit, nanFade, infiniteZoom], cacheDir: join(dir, 'cache-more') })
const failureOf = async (clip: object) => {
  try {
    await more.render(edit([{ start: 0, length: 0.2, ...clip }], { fps: 12 }), { out: join(dir, 'more.mp4') })
    return undefined
  } catch (e) {
    return e as RenderError
  }
}

const syncPrepare = defineAssetPlugin({
  kind: 'asset',
  name: 'sync',
  schema: v.looseObject({ type: v.literal('sync') }),
  // A JavaScript plugin's `prepare` answering a plain object, not a promise: as good as an async one.
  prepare: (() => ({ size: { width: 16, height: 16 }, static: true, ...still({}) })) as never,
})

test('a synchronous prepare renders', async () => {
  const sync = createRenderer({ plugins: [syncPrepare], cacheDir: join(dir, 'cache-sync') })
  const r = await sync.render(edit([{ asset: { type: 'sync' }, start: 0, length: 0.25 }], { fps: 12 }), { out: join(dir, 'sync.mp4') })
  assert.is(r.frames, 3)
})

test('a crop that leaves nothing of an image is refused at asset.crop, not a fit or memory failure', async () => {
  const src = await solidPng(join(dir, 'crop.png'), 16, 16, '#ff0000')
  const e = await failureOf({ asset: { type: 'image', src, crop: { left: 0.5, right: 0.5 } } })
  assert.is(e?.code, 'E_TIMELINE_INVALID', String(e))
  assert.equal(e?.data?.issues, [
    { path: 'timeline.tracks[0].clips[0].asset.crop', message: 'left + right must be below 1: nothing of the asset would be left' },
  ])
})

test('a schema without `type` still renders its clip', async () => {
  assert.is(await failureOf({ asset: { type: 'untyped', colour: 'red' } }), undefined)
})

test('a `pixels` hook that throws is named as such', async () => {
  const e = await failureOf({ asset: { type: 'badpixels' } })
  assert.match(String(e?.message), /^timeline\.tracks\[0\]\.clips\[0\]\.asset: \[asset:badpixels\] pixels: no pixels today/)
})

test('a `frame` answering something that is no texture is named, not drawn as nothing', async () => {
  const e = await failureOf({ asset: { type: 'nottexture' } })
  assert.match(String(e?.message), /^timeline\.tracks\[0\]\.clips\[0\]\.asset: \[asset:nottexture\] frame: answered no texture .*got \{"nope":1\}/)
})

test('a transition or effect leaving a state that is not a finite number is its failure, naming the field', async () => {
  const src = await solidPng(join(dir, 'motion.png'), 16, 16, '#ff0000')
  const fading = await failureOf({ asset: { type: 'image', src }, length: 2, transition: { in: 'nanfade' } })
  assert.match(String(fading?.message), /\.transition\.in: \[transition:nanfade\] apply: left opacity NaN at progress 0\.5\d*/)
  const zooming = await failureOf({ asset: { type: 'image', src }, effect: 'infinite' })
  assert.match(String(zooming?.message), /\.effect: \[effect:infinite\] apply: left zoom Infinity at progress/)
})

test("a fit answering NaN is the fit's failure", async () => {
  const e = await failureOf({ asset: { type: 'image', src: await solidPng(join(dir, 'x.png'), 16, 16, '#ff0000') }, fit: 'nanfit' })
  assert.is(e?.code, 'E_PLUGIN_FAILED', String(e))
  assert.match(String(e?.message), /\[fit:nanfit\] fit: answered no size/)
})

test.run()
