import { easing } from '../../core/index.js'
import { defineLayerTransition, HALF_SECOND } from './layer-transition.js'

const ease = easing('ease')
/** How far a slide travels, as a fraction of the frame (Shotstack's editor uses 2.5 %). */
const DISTANCE = 0.025

/**
 * `slideLeft|Right|Up|Down`: the clip moves a little in the named direction while it fades — into place
 * on the way in, onward out of it on the way out (0.5 s; Slow 2 s, Fast 0.25 s). Offsets are y-down.
 */
const slide = (name: string, dx: number, dy: number) =>
  defineLayerTransition(name, HALF_SECOND, (layer, p, entering) => {
    if (entering) {
      // Arrive from behind the direction of travel, linearly, fading up.
      const rest = 1 - p
      layer.offsetX -= dx * DISTANCE * rest
      layer.offsetY -= dy * DISTANCE * rest
      layer.opacity *= ease(p)
    } else {
      const e = ease(p)
      layer.offsetX += dx * DISTANCE * e
      layer.offsetY += dy * DISTANCE * e
      layer.opacity *= 1 - e
    }
  })

export const slideLeft = slide('slideLeft', -1, 0)
export const slideRight = slide('slideRight', 1, 0)
export const slideUp = slide('slideUp', 0, -1)
export const slideDown = slide('slideDown', 0, 1)
