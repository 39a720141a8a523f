import { defineTransitionPlugin, easing } from '../../core/index.js'

const ease = easing('ease')

/** `reveal`: uncovered left to right on the way in, covered right to left on the way out (1 s; Slow 2 s, Fast 0.5 s). */
export const reveal = defineTransitionPlugin({
  kind: 'transition',
  name: 'reveal',
  durations: { '': 1, Slow: 2, Fast: 0.5, VeryFast: 0.25 },
  compile: ({ direction }) => ({
    apply(layer, p) {
      const e = ease(p)
      layer.clipRight = Math.min(layer.clipRight, direction === 'in' ? e : 1 - e)
    },
  }),
})
