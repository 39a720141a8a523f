import { easing } from '../../core/index.js'
import { defineLayerTransition, ONE_SECOND } from './layer-transition.js'

const ease = easing('ease')

/** `reveal`: uncovered left to right on the way in, covered right to left on the way out (1 s; Slow 2 s, Fast 0.5 s). */
export const reveal = defineLayerTransition('reveal', ONE_SECOND, (layer, p, entering) => {
  const e = ease(p)
  layer.clipRight = Math.min(layer.clipRight, entering ? e : 1 - e)
})
