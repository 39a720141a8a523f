import { easing } from '../../core/index.js'
import { defineLayerTransition, ONE_SECOND } from './layer-transition.js'

const easeInOut = easing('easeInOut')
/** Width of the wipe's soft edge, in layer widths: a fade that travels across rather than a hard line. */
const SOFTNESS = 0.35

/**
 * `wipeLeft|Right`: "fade across the screen" — a soft edge travels across the clip in the named direction.
 * wipeLeft uncovers it from the right edge towards the left on the way in and covers it right to left on
 * the way out; wipeRight mirrors that (1 s; Slow 2 s, Fast 0.5 s).
 */
const wipe = (name: string, movingLeft: boolean) =>
  defineLayerTransition(name, ONE_SECOND, (layer, p, entering) => {
    const e = easeInOut(p)
    // The visible part hangs from one edge (+1 left, −1 right) and reaches `position` across the layer.
    layer.wipeFrom = entering === movingLeft ? -1 : 1
    layer.wipeSoftness = SOFTNESS
    layer.wipePosition = (entering ? e : 1 - e) * (1 + SOFTNESS)
  })

export const wipeLeft = wipe('wipeLeft', true)
export const wipeRight = wipe('wipeRight', false)
