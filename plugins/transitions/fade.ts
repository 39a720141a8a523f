import { easing } from '../../core/index.js'
import { defineLayerTransition, ONE_SECOND } from './layer-transition.js'

const easeInOut = easing('easeInOut')

/** `fade`: opacity 0 → 1 in, 1 → 0 out, eased in and out (1 s; Slow 2 s, Fast 0.5 s). */
export const fade = defineLayerTransition('fade', ONE_SECOND, (layer, p, entering) => {
  const e = easeInOut(p)
  layer.opacity *= entering ? e : 1 - e
})
