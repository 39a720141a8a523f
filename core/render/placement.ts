import type { Position } from '../schema/names.js'

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

export interface Rect {
  x: number
  y: number
  width: number
  height: number
}

/**
 * Where a layer sits in the frame, in pixels, before its zoom and rotation: its fitted size × `scale`, put
 * flush to its position's edges (SHOTSTACK.md §4.3), then moved by `offset` (fractions of the frame, y down —
 * an edit's `offset.y` already signed by the y-axis convention). Kept free of imports: the dashboard's editor
 * draws its clip boxes with this very function. Writes into `out` (no allocation in the frame loop).
 */
export function placeLayer(
  frame: { width: number; height: number },
  fitted: { width: number; height: number },
  position: Position,
  scale: number,
  offsetX: number,
  offsetY: number,
  out: Rect = { x: 0, y: 0, width: 0, height: 0 },
): Rect {
  const [ax, ay] = ANCHORS[position]
  out.width = fitted.width * scale
  out.height = fitted.height * scale
  out.x = ax * (frame.width - out.width) + offsetX * frame.width
  out.y = ay * (frame.height - out.height) + offsetY * frame.height
  return out
}
