import { defineTransitionPlugin, easing, type TransitionPlugin } from '../../core/index.js'

const ease = easing('ease')
/** How far a slide travels, as a fraction of the frame (Shotstack's editor uses 2.5 %). */
const DISTANCE = 0.025

/**
 * `slideLeft|Right|Up|Down`: the clip moves a little in the named direction while it fades — into place
 * on the way in, onward out of it on the way out (0.5 s; Slow 2 s, Fast 0.25 s). Offsets are y-down.
 */
function slide(name: string, dx: number, dy: number): TransitionPlugin {
  return defineTransitionPlugin({
    kind: 'transition',
    name,
    durations: { '': 0.5, Slow: 2, Fast: 0.25, VeryFast: 0.25 },
    compile: ({ direction }) => ({
      apply(layer, p) {
        if (direction === 'in') {
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
      },
    }),
  })
}

export const slideLeft = slide('slideLeft', -1, 0)
export const slideRight = slide('slideRight', 1, 0)
export const slideUp = slide('slideUp', 0, -1)
export const slideDown = slide('slideDown', 0, 1)
