import { easing } from '../../core/index.js'
import { defineLayerTransition, ONE_SECOND } from './layer-transition.js'

const easeOut = easing('easeOutCubic')
const easeIn = easing('easeInCubic')

/**
 * `shuffle<Edge><Corner>` (8 variants): the clip spins in from a corner, like a card dealt onto the pile — it
 * travels mostly along the first-named edge's axis, a little along the second, turning 30° as it comes, and
 * fades up; out reverses towards the same corner (1 s; Slow 2 s, Fast 0.5 s). Shotstack documents only
 * "rotate in/out from that corner"; its own editor does not implement these.
 */
function shuffle(name: string, dx: number, dy: number) {
  const turn = dx * dy > 0 ? 30 : -30
  return defineLayerTransition(name, ONE_SECOND, (layer, p, entering) => {
    const away = entering ? 1 - easeOut(p) : easeIn(p)
    layer.offsetX += dx * away
    layer.offsetY += dy * away
    layer.rotate += turn * away
    layer.opacity *= Math.min(1, (1 - away) * 2)
  })
}

// First word: the edge it travels across most; second: the corner's other side. y is down-positive.
export const shuffleTopRight = shuffle('shuffleTopRight', 0.4, -1)
export const shuffleRightTop = shuffle('shuffleRightTop', 1, -0.4)
export const shuffleRightBottom = shuffle('shuffleRightBottom', 1, 0.4)
export const shuffleBottomRight = shuffle('shuffleBottomRight', 0.4, 1)
export const shuffleBottomLeft = shuffle('shuffleBottomLeft', -0.4, 1)
export const shuffleLeftBottom = shuffle('shuffleLeftBottom', -1, 0.4)
export const shuffleLeftTop = shuffle('shuffleLeftTop', -1, -0.4)
export const shuffleTopLeft = shuffle('shuffleTopLeft', -0.4, -1)
