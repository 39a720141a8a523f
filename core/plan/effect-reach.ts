import type { CompiledMotion } from '../plugin.js'
import { callHook, type PluginId } from '../plugin-driver.js'
import { resetState } from '../render/layer-state.js'
import { neutralState } from '../render/layout.js'

/** Points of an effect's progress (0 → 1) its zoom is read at. */
const SAMPLES = 33

/**
 * The built-in effects reach 1.7× at most (zoomInFast), and a still is decoded for that much whatever its
 * effect: measured, a photo resampled once to a zoom's own 1.3× and warped from there is a softer picture than
 * the 1.7× texture warped (benchmarks/README.md), so the larger texture stays.
 */
const BUILT_IN_REACH = 1.7

/**
 * How much larger than its fitted size an effect draws a layer at its largest (zoom × scale): what its still or
 * video is decoded for. A plugin's effect that zooms further (to 2.5×, say) is read from its motion at 33 points
 * of the clip, so its peak is drawn from texels, not magnified from a 1.7× texture; a smooth motion between two
 * of the points is within a fraction of a per cent of them.
 */
export function effectReach(plugin: PluginId, motion: CompiledMotion, path: string): number {
  const state = neutralState()
  let most = BUILT_IN_REACH
  for (let i = 0; i < SAMPLES; i++) {
    resetState(state)
    callHook(plugin, 'apply', path, () => motion.apply(state, i / (SAMPLES - 1)))
    // A zoom that is not a number (0 · ∞, a plugin's slip) sizes nothing: NaN would size the texture NaN.
    const reach = Math.abs(state.zoom * state.scale)
    if (Number.isFinite(reach) && reach > most) most = reach
  }
  return most
}
