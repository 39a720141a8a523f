import { easing } from '../../core/index.js'
import { defineLayerTransition } from './layer-transition.js'

const easeIn = easing('easeIn')
const easeOut = easing('easeOut')

/** `zoom`: a fast zoom from 10× down to size while fading in (and back out), 0.4 s — Shotstack's editor's values. */
export const zoom = defineLayerTransition('zoom', { '': 0.4 }, (layer, p, entering) => {
  const e = entering ? 1 - easeIn(p) : easeOut(p) // 1 = fully zoomed away
  layer.zoom *= 1 + 9 * e
  layer.opacity *= 1 - e
})
