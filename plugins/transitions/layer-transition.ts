import { defineTransitionPlugin, type LayerState, type TransitionPlugin } from '../../core/index.js'

/** Most transitions' lengths: 1 s (Slow 2 s, Fast 0.5 s, VeryFast 0.25 s). */
export const ONE_SECOND: TransitionPlugin['durations'] = { '': 1, Slow: 2, Fast: 0.5, VeryFast: 0.25 }
/** slide and carousel, as Shotstack's editor times them: 0.5 s (Slow 2 s, Fast and VeryFast 0.25 s). */
export const HALF_SECOND: TransitionPlugin['durations'] = { '': 0.5, Slow: 2, Fast: 0.25, VeryFast: 0.25 }

/**
 * How a transition changes one layer on one frame. HOT: `p` runs 0 → 1 across the transition; `entering` is
 * true on a clip's way in and false on its way out. Mutate `layer` only. Offsets are y-down.
 */
export type LayerMove = (layer: LayerState, p: number, entering: boolean) => void

/**
 * A transition that changes the layer's own state (offset, opacity, zoom, rotation, clip, wipe) rather than
 * blending whole frames (glsl.ts). A family of variants (`slideLeft|Right|Up|Down`) calls it once per variant
 * with the variant's direction in `move`, so each family's file says only how it moves.
 */
export function defineLayerTransition(name: string, durations: TransitionPlugin['durations'], move: LayerMove): TransitionPlugin {
  return defineTransitionPlugin({
    kind: 'transition',
    name,
    durations,
    compile: ({ direction }) => {
      const entering = direction === 'in'
      return { apply: (layer, p) => move(layer, p, entering) }
    },
  })
}
