import type { LayerState, Size } from '../plugin.js'
import type { Position } from '../schema/names.js'
import { about, multiply, type Affine } from './affine.js'
import { LAYER_STATE } from './layer-state.js'
import { anchorOf, placeLayer, type Rect } from './placement.js'

export { anchorOf } from './placement.js'

/** A fresh state with nothing applied. */
export function neutralState(): LayerState {
  return { ...LAYER_STATE }
}

/** The frame loop's scratch rectangle (one layer at a time). */
const PLACED: Rect = { x: 0, y: 0, width: 0, height: 0 }

/**
 * The map from the layer's unit square (0..1 × 0..1, top-left origin) to frame pixels.
 * Order, as in Shotstack: fit → scale → position (edge-aligned, SHOTSTACK.md §4.3) → offset, then
 * `zoom` about the layer's centre, then rotate/skew about the position's anchor point.
 */
export function layerMatrix(frame: Size, fitted: Size, position: Position, s: LayerState, out: Affine = [0, 0, 0, 0, 0, 0]): Affine {
  const { x, y, width: w, height: h } = placeLayer(frame, fitted, position, s.scale, s.offsetX, s.offsetY, PLACED)
  const z = s.zoom
  // Unit square → placed, zoomed rectangle.
  out[0] = w * z
  out[1] = 0
  out[2] = 0
  out[3] = h * z
  out[4] = x + (1 - z) * (w / 2)
  out[5] = y + (1 - z) * (h / 2)
  if (s.rotate === 0 && s.skewX === 0 && s.skewY === 0) return out
  const rad = (s.rotate * Math.PI) / 180
  const cos = Math.cos(rad),
    sin = Math.sin(rad)
  // Rotation (clockwise on screen, y down) after shear [[1, skewX], [skewY, 1]].
  const linear: [number, number, number, number] = [cos - sin * s.skewY, sin + cos * s.skewY, cos * s.skewX - sin, sin * s.skewX + cos]
  const [ax, ay] = anchorOf(position)
  return multiply(about(linear, x + ax * w, y + ay * h), [...out] as Affine, out)
}
