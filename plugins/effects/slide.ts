import { defineEffectPlugin, type EffectPlugin } from '../../core/index.js'

/** How far the slide effects travel each way, as a fraction of the frame (Shotstack's editor: 0.03 / 0.12 / 0.2). */
const DISTANCE = { '': 0.12, Slow: 0.03, Fast: 0.2 } as const

/**
 * `slideLeft|Right|Up|Down` (+ Slow, Fast): a slow pan across the clip's length, from +d to −d in the named
 * direction. A clip that covers the frame is enlarged just enough to keep covering it while it pans (the
 * background never shows); an overlay smaller than the frame pans as it is.
 */
function slide(name: string, dx: number, dy: number): EffectPlugin {
  return defineEffectPlugin({
    kind: 'effect',
    name,
    compile: ({ speed, fitted, frame }) => {
      const d = DISTANCE[speed]
      const covers = fitted.width >= frame.width - 1 && fitted.height >= frame.height - 1
      const need = covers
        ? Math.max((frame.width * (1 + 2 * d * Math.abs(dx))) / fitted.width, (frame.height * (1 + 2 * d * Math.abs(dy))) / fitted.height, 1)
        : 1
      return {
        apply(layer, p) {
          const travel = d * (1 - 2 * p) // +d → −d
          layer.offsetX -= dx * travel
          layer.offsetY -= dy * travel
          layer.zoom *= need
        },
      }
    },
  })
}

export const slideLeft = slide('slideLeft', -1, 0)
export const slideRight = slide('slideRight', 1, 0)
export const slideUp = slide('slideUp', 0, -1)
export const slideDown = slide('slideDown', 0, 1)
