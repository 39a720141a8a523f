import type { LayerState, Size } from '../plugin.js'
import type { Position } from '../schema/names.js'
import { about, multiply, type Affine } from './affine.js'
import { LAYER_STATE } from './layer-state.js'

/** Where a position puts the layer: 0 = flush left/top, 0.5 = centred, 1 = flush right/bottom. */
const ANCHORS: Record<Position, [number, number]> = {
  topLeft: [0, 0],
  top: [0.5, 0],
  topRight: [1, 0],
  left: [0, 0.5],
  center: [0.5, 0.5],
  right: [1, 0.5],
  bottomLeft: [0, 1],
  bottom: [0.5, 1],
  bottomRight: [1, 1],
}

/** Returns [ax, ay] for a position (see ANCHORS). */
export const anchorOf = (position: Position): [number, number] => ANCHORS[position]

/** A fresh state with nothing applied. */
export function neutralState(): LayerState {
  return { ...LAYER_STATE }
}

/**
 * The map from the layer's unit square (0..1 × 0..1, top-left origin) to frame pixels.
 * Order, as in Shotstack: fit → scale → position (edge-aligned, SHOTSTACK.md §4.3) → offset, then
 * `zoom` about the layer's centre, then rotate/skew about the position's anchor point.
 */
export function layerMatrix(frame: Size, fitted: Size, position: Position, s: LayerState, out: Affine = [0, 0, 0, 0, 0, 0]): Affine {
  const [ax, ay] = ANCHORS[position]
  const w = fitted.width * s.scale
  const h = fitted.height * s.scale
  const x = ax * (frame.width - w) + s.offsetX * frame.width
  const y = ay * (frame.height - h) + s.offsetY * frame.height
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
  return multiply(about(linear, x + ax * w, y + ay * h), [...out] as Affine, out)
}
