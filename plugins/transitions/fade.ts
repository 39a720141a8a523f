import { defineTransitionPlugin, easing } from '../../core/index.js'

const easeInOut = easing('easeInOut')

/** `fade`: opacity 0 → 1 in, 1 → 0 out, eased in and out (1 s; Slow 2 s, Fast 0.5 s). */
export const fade = defineTransitionPlugin({
  kind: 'transition',
  name: 'fade',
  durations: { '': 1, Slow: 2, Fast: 0.5, VeryFast: 0.25 },
  compile: ({ direction }) => ({
    apply(layer, p) {
      const e = easeInOut(p)
      layer.opacity *= direction === 'in' ? e : 1 - e
    },
  }),
})
