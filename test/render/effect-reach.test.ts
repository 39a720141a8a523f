import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import * as v from 'valibot'
import { defineAssetPlugin, defineEffectPlugin } from '../../index.js'
import type { Size } from '../../core/index.js'
import { prepareStill } from '../../plugins/assets/image.js'
import { solidPng, tempDir } from '../helpers/media.js'
import { edit, renderAndDecode } from '../helpers/render.js'

// A still is decoded for the largest size its clip draws it at (never above its own). Every built-in effect gets
// 1.7× its fitted size (zoomInFast's reach; for a 1.3× zoom too: the larger texture warped is the better picture);
// a plugin's effect that zooms further gets what it reaches, not a 1.7× texture magnified at its peak.

const dir = tempDir()
const test = suite('the size a clip with an effect decodes its still at')
let src = ''
/** The size each `recorded` still was opened at, in clip order. */
const needs: Size[] = []

/** The image asset, noting the size it is asked for. */
const recorded = defineAssetPlugin({
  kind: 'asset',
  name: 'recorded',
  schema: v.looseObject({ type: v.literal('recorded'), src: v.string() }),
  async prepare(params, ctx) {
    const still = await prepareStill(await ctx.load(params.src), ctx)
    return { ...still, open: (gpu, need, ...more) => (needs.push(need), still.open!(gpu, need, ...more)) }
  },
})

/** An effect that zooms to 2.5× half-way through and back, then leaves the zoom alone but doubles the scale. */
const swell = defineEffectPlugin({
  kind: 'effect',
  name: 'swell',
  compile: () => ({
    apply(layer, p) {
      layer.zoom *= 1 + 1.5 * Math.sin(Math.PI * Math.min(1, 2 * p))
      if (p > 0.9) layer.scale *= 2
    },
  }),
})

/** An effect whose zoom is not a number half-way through (a plugin's slip), infinite at the end. */
const slip = defineEffectPlugin({
  kind: 'effect',
  name: 'slip',
  compile: () => ({
    apply(layer, p) {
      layer.zoom *= p > 0.45 && p < 0.55 ? Number.NaN : p === 1 ? Number.POSITIVE_INFINITY : 1
    },
  }),
})

test.before(async () => {
  src = await solidPng(join(dir, 'photo.png'), 4000, 3000, '#3366aa')
})

test('each effect: the fitted size times 1.7, or times how far a plugin effect reaches past it', async () => {
  // 4000×3000 fitted to cover 320×180: 320×240.
  const cases = [
    [undefined, 1],
    ['zoomIn', 1.7],
    ['zoomOutFast', 1.7],
    ['slideLeft', 1.7],
    // At most 2.5 from the zoom, 2 from the scale: never both at once, so 2.5.
    ['swell', 2.5],
  ] as const
  const clips = cases.map(([effect], i) => ({ asset: { type: 'recorded', src }, start: i * 0.25, length: 0.25, ...(effect && { effect }) }))
  needs.length = 0
  await renderAndDecode(edit(clips, { fps: 12 }), { plugins: [recorded, swell] })
  assert.is(needs.length, cases.length)
  cases.forEach(([effect, reach], i) => {
    const want = { width: 320 * reach, height: 240 * reach }
    const got = needs[i]!
    assert.ok(
      Math.abs(got.width - want.width) <= 1 && Math.abs(got.height - want.height) <= 1,
      `${effect}: ${got.width}×${got.height}, want ${want.width}×${want.height}`,
    )
  })
})

test("a clip's own scale multiplies it; never above the still's own size", async () => {
  const clips = [
    { asset: { type: 'recorded', src }, start: 0, length: 0.25, effect: 'swell', scale: 1.5 },
    { asset: { type: 'recorded', src }, start: 0.25, length: 0.25, effect: 'swell', scale: 20 },
  ]
  needs.length = 0
  await renderAndDecode(edit(clips, { fps: 12 }), { plugins: [recorded, swell] })
  assert.ok(Math.abs(needs[0]!.width - 320 * 1.5 * 2.5) <= 1, `scaled: ${needs[0]!.width}`)
  assert.equal(needs[1], { width: 4000, height: 3000 })
})

test('a zoom that is not a finite number sizes nothing: the still is decoded for 1.7×, the frame names the effect', async () => {
  needs.length = 0
  try {
    await renderAndDecode(edit([{ asset: { type: 'recorded', src }, start: 0, length: 1, effect: 'slip' }], { fps: 12 }), { plugins: [recorded, slip] })
    assert.unreachable()
  } catch (e) {
    // Sized at plan time without the NaN; the frame where the zoom is NaN fails as the effect's apply.
    assert.ok(Math.abs(needs[0]!.width - 320 * 1.7) <= 1, `${needs[0]!.width}`)
    assert.match((e as Error).message, /\[effect:slip\] apply: left zoom NaN/)
  }
})

test.run()
