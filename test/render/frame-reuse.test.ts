// A frame whose layers are static and unchanged is repeated, not composited again. Any change in any field of
// a layer's animated state must invalidate that reuse — the reuse key once missed `wipeSoftness`, and a frame
// whose wipe edge moved was repeated. The fields are walked from `neutralState()`, the one list (LAYER_STATE).
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createRenderer, defineEffectPlugin } from '../../index.js'
import { neutralState, type FrameSink, type LayerState } from '../../kit.js'
import { renderFrames } from '../../core/render/frame-loop.js'
import type { RenderPlan } from '../../core/plan/plan.js'
import { solidPng, tempDir } from '../helpers/media.js'
import { edit } from '../helpers/render.js'

const dir = tempDir()
/** The field the `nudge` effect moves a little further on every frame; none: the effect changes nothing. */
let moving: keyof LayerState | undefined
const nudge = defineEffectPlugin({
  kind: 'effect',
  name: 'nudge',
  compile: () => ({
    apply(layer, progress) {
      // Small steps around the neutral value: the layer stays visible, only this one number differs.
      if (moving) layer[moving] += 0.01 + 0.05 * progress
    },
  }),
})
const sink: FrameSink = { write() {}, close: async () => ({ path: '', bytes: 0 }), abort() {} }

const reuse = suite('frame reuse sees every field of the layer state')
let plan: RenderPlan
reuse.before(async () => {
  const png = await solidPng(join(dir, 'still.png'), 32, 32, '#ff0000')
  const renderer = createRenderer({ plugins: [nudge], cacheDir: join(dir, 'cache') })
  plan = await renderer.plan(
    edit([{ asset: { type: 'image', src: png }, start: 0, length: 0.5, effect: 'nudge' }], { size: { width: 64, height: 36 }, fps: 12 }),
  )
})
reuse.after(() => plan?.dispose())

reuse('a static image whose state does not change is composited once', async () => {
  moving = undefined
  // Made once: drawn with GL or, as this still covers the frame, around it (core/render/cover.ts).
  const { frames, drawn, direct } = await renderFrames(plan, sink, { signal: new AbortController().signal })
  assert.is(frames, 6)
  assert.is(drawn + direct, 1)
})

for (const field of Object.keys(neutralState()) as (keyof LayerState)[]) {
  reuse(`a change in ${field} alone composites every frame again`, async () => {
    moving = field
    const { frames, drawn, direct } = await renderFrames(plan, sink, { signal: new AbortController().signal })
    assert.is(drawn + direct, frames, `${field} changed on every frame, but only ${drawn + direct} of ${frames} frames were made`)
  })
}
reuse.run()
