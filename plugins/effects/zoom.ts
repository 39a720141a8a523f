import { defineEffectPlugin, type EffectPlugin } from '../../core/index.js'

/** How far the zoom effects go: Shotstack's editor's factors (Slow 1.1, normal 1.3, Fast 1.7). */
const FACTOR = { '': 1.3, Slow: 1.1, Fast: 1.7 } as const

/**
 * `zoomIn` / `zoomOut` (+ Slow, Fast): a steady zoom about the clip's centre over its whole length, from 1 to
 * the factor (or back). Never below 1, so a clip that covers the frame keeps covering it.
 */
function zoom(name: string, inward: boolean): EffectPlugin {
  return defineEffectPlugin({
    kind: 'effect',
    name,
    compile: ({ speed }) => {
      const to = FACTOR[speed]
      return {
        apply(layer, p) {
          layer.zoom *= inward ? 1 + (to - 1) * p : to - (to - 1) * p
        },
      }
    },
  })
}

export const zoomIn = zoom('zoomIn', true)
export const zoomOut = zoom('zoomOut', false)
