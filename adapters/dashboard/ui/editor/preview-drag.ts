import { useRef, useState } from 'preact/hooks'
import { anchorOf } from '../../../../core/render/placement.js'
import { getIn, isObj, num, type Obj, setIn } from './edit-doc.js'
import type { ClipBox } from './layout.js'
import type { EditorStore } from './store.js'

/** How near (screen pixels) a dragged box's edge or centre must come to an anchor line to sit on it. */
const SNAP_PX = 8
/** A scale within this much of 1 becomes 1. */
const SCALE_SNAP = 0.03
const round = (n: number) => Math.round(n * 10_000) / 10_000

export interface BoxDrag {
  kind: 'move' | 'scale'
  box: ClipBox
  /** Where the box is drawn now, in frame pixels. */
  x: number
  y: number
  width: number
  height: number
  offset: { x: number; y: number }
  scale: number
  /** The anchor lines it sits on (fractions: 0, 0.5, 1), drawn as guides. */
  snapped: { x?: number; y?: number }
}

interface Env {
  store: EditorStore
  frame: { width: number; height: number }
  yAxis: 'up' | 'down'
  /** Screen pixels per frame pixel (the stage's width over the frame's). */
  zoom(): number
}

/**
 * Dragging an object on the preview sets its clip's `offset` (x right, y in this server's convention), snapping
 * its box to the nine `position` anchors — flush left, centred or flush right, and the same up and down (Alt:
 * no snapping). Dragging its handle sets `scale`. The change is made once, when the pointer is let go.
 */
export function usePreviewDrag(env: Env) {
  const [view, setView] = useState<BoxDrag>()
  const start = useRef<{ x: number; y: number; box: ClipBox; kind: 'move' | 'scale'; moved: boolean }>()
  const ySign = env.yAxis === 'up' ? -1 : 1

  const begin = (e: PointerEvent, box: ClipBox, kind: 'move' | 'scale') => {
    // Keyframed values are edited in the JSON: a drag would flatten them into one number.
    const fields = kind === 'move' ? [getIn(box.clip, ['offset', 'x']), getIn(box.clip, ['offset', 'y'])] : [box.clip.scale]
    if (fields.some(Array.isArray)) return
    ;(e.currentTarget as Element).setPointerCapture?.(e.pointerId)
    start.current = { x: e.clientX, y: e.clientY, box, kind, moved: false }
  }
  const compute = (e: PointerEvent): BoxDrag | undefined => {
    const s = start.current
    if (!s) return undefined
    const k = env.zoom()
    const { box } = s
    const { width: W, height: H } = env.frame
    const offset = { x: num(getIn(box.clip, ['offset', 'x'])) ?? 0, y: num(getIn(box.clip, ['offset', 'y'])) ?? 0 }
    if (s.kind === 'move') {
      let x = box.x + (e.clientX - s.x) / k
      let y = box.y + (e.clientY - s.y) / k
      const snapped: BoxDrag['snapped'] = {}
      for (const a of e.altKey ? [] : [0, 0.5, 1]) {
        const tx = a * (W - box.width)
        const ty = a * (H - box.height)
        if (Math.abs(x - tx) * k <= SNAP_PX) (x = tx), (snapped.x = a)
        if (Math.abs(y - ty) * k <= SNAP_PX) (y = ty), (snapped.y = a)
      }
      const moved = { x: round(offset.x + (x - box.x) / W), y: round(offset.y + (ySign * (y - box.y)) / H) }
      return { kind: 'move', box, x, y, width: box.width, height: box.height, offset: moved, scale: box.scale, snapped }
    }
    // The handle is the box's bottom-right corner: its distance from the centre, now over then, is the scale's.
    const cx = box.x + box.width / 2
    const cy = box.y + box.height / 2
    const d0 = Math.hypot(box.x + box.width - cx, box.y + box.height - cy)
    const d1 = Math.hypot(box.x + box.width + (e.clientX - s.x) / k - cx, box.y + box.height + (e.clientY - s.y) / k - cy)
    let scale = round(Math.max(0.01, box.scale * (d1 / (d0 || 1))))
    if (!e.altKey && Math.abs(scale - 1) <= SCALE_SNAP) scale = 1
    const r = scale / (box.scale || 1)
    const [ax, ay] = anchorOf(box.position)
    const width = box.width * r
    const height = box.height * r
    return { kind: 'scale', box, x: box.x - ax * (width - box.width), y: box.y - ay * (height - box.height), width, height, offset, scale, snapped: {} }
  }
  const move = (e: PointerEvent) => {
    const s = start.current
    if (!s || (!s.moved && Math.hypot(e.clientX - s.x, e.clientY - s.y) < 3)) return
    s.moved = true
    setView(compute(e))
  }
  const end = (e: PointerEvent) => {
    const s = start.current
    const v = s?.moved ? compute(e) : undefined
    start.current = undefined
    setView(undefined)
    if (!v) return
    const { ref, clip } = v.box
    const edit = env.store.current().edit
    const path = ['timeline', 'tracks', ref.track, 'clips', ref.clip]
    const next =
      v.kind === 'move'
        ? setIn(edit, [...path, 'offset'], { ...(isObj(clip.offset) ? clip.offset : {}), x: v.offset.x, y: v.offset.y })
        : setIn(edit, [...path, 'scale'], v.scale)
    env.store.change(v.kind === 'move' ? 'Move on the preview' : 'Scale on the preview', next as Obj, [ref])
  }
  return { view, begin, move, end }
}
