import { defineTransitionPlugin, easing } from '../../core/index.js'

const easeIn = easing('easeIn')
const easeOut = easing('easeOut')

/** `zoom`: a fast zoom from 10× down to size while fading in (and back out), 0.4 s — Shotstack's editor's values. */
export const zoom = defineTransitionPlugin({
  kind: 'transition',
  name: 'zoom',
  durations: { '': 0.4 },
  compile: ({ direction }) => ({
    apply(layer, p) {
      const e = direction === 'in' ? 1 - easeIn(p) : easeOut(p) // 1 = fully zoomed away
      layer.zoom *= 1 + 9 * e
      layer.opacity *= 1 - e
    },
  }),
})
