import type { EffectPlugin, FilterPlugin, FitPlugin, TransitionPlugin } from '../../core/index.js'

/**
 * A custom transition, effect, filter and fit, loaded as a plugin module (`REELFORGE_PLUGINS`): what an operator's
 * own plugins look like to the API and the dashboard, which must list them beside the built-in ones.
 */
export const irisTest: TransitionPlugin = {
  kind: 'transition',
  name: 'irisTest',
  durations: { '': 0.5 },
  compile: ({ direction }) => ({ apply: (layer, p) => void (layer.scale *= direction === 'in' ? p : 1 - p) }),
}
export const wobbleTest: EffectPlugin = {
  kind: 'effect',
  name: 'wobbleTest',
  compile: () => ({ apply: (layer, p) => void (layer.rotate += Math.sin(p * Math.PI * 4) * 5) }),
}
/** Turns everything it covers pure green: a filter whose effect a frame shows at once. */
export const greenTest: FilterPlugin = { kind: 'filter', name: 'greenTest', glsl: 'return vec4(0.0, c.a, 0.0, c.a);' }

/** Draws an asset at a third of its box's width, full height. */
export const thirdTest: FitPlugin = { kind: 'fit', name: 'thirdTest', fit: (_src, box) => ({ width: box.width / 3, height: box.height }) }

export default [irisTest, wobbleTest, greenTest, thirdTest]
