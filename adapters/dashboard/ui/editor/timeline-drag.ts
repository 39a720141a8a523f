import { useRef, useState } from 'preact/hooks'
import { onFrame, type Timed } from './clip-times.js'
import { type ClipRef, sameRef } from './edit-doc.js'
import { moveClips, type Result, trimClip } from './ops.js'
import { SNAP_PX, snapDelta, snapPoints } from './snap.js'
import type { EditorStore } from './store.js'

/** What is being dragged: the selected clips' bodies (move) or one clip's edge (trim). */
export type DragKind = 'move' | 'start' | 'end'

/** A drag in progress, as the bars draw it before it is let go. */
export interface DragView {
  kind: DragKind
  refs: ClipRef[]
  /** Seconds the clips move (or the edge moves), snapped. */
  delta: number
  /** Tracks down (negative: up), for a move. */
  trackShift: number
  /** The snap point it sits on, drawn as a guide. */
  snappedAt?: number
}

interface Env {
  store: EditorStore
  times: Timed[][]
  fps: number
  playhead: number
  pxPerSecond: number
  rowHeight: number
}

/**
 * Pointer drags on the timeline's bars. Pointer down captures the pointer; each move works out the snapped
 * delta (clip edges, playhead, whole seconds; Alt held: no snapping); pointer up makes the one change
 * through the store — nothing is written while dragging, so a drag is one undo step.
 */
export function useTimelineDrag(env: Env) {
  const [view, setView] = useState<DragView>()
  type Session = { kind: DragKind; refs: ClipRef[]; x: number; y: number; moved: boolean }
  const session = useRef<Session>()
  const timed = (r: ClipRef) => env.times.flat().find((t) => sameRef(t.ref, r))

  const begin = (e: PointerEvent, kind: DragKind, refs: ClipRef[]) => {
    ;(e.currentTarget as Element).setPointerCapture?.(e.pointerId)
    session.current = { kind, refs, x: e.clientX, y: e.clientY, moved: false }
  }
  const compute = (s: Session, e: PointerEvent): DragView => {
    const raw = (e.clientX - s.x) / env.pxPerSecond
    const dragged = s.refs.flatMap((r) => timed(r) ?? [])
    const edges = dragged.flatMap((t) => (s.kind === 'move' ? [t.start, t.start + t.length] : s.kind === 'start' ? [t.start] : [t.start + t.length]))
    const until = Math.max(...env.times.flat().map((t) => t.start + t.length), 0) + Math.abs(raw)
    const points = snapPoints(env.times, (t) => s.refs.some((r) => sameRef(r, t.ref)), env.playhead, until)
    const snapped = e.altKey ? { delta: raw } : snapDelta(edges, raw, points, SNAP_PX / env.pxPerSecond)
    // Never before 0 s.
    const floor = -Math.min(...dragged.map((t) => (s.kind === 'end' ? t.start + t.length : t.start)))
    const delta = Math.max(floor, snapped.at === undefined ? onFrame(snapped.delta, env.fps) : snapped.delta)
    const trackShift = s.kind === 'move' ? Math.round((e.clientY - s.y) / env.rowHeight) : 0
    return { kind: s.kind, refs: s.refs, delta, trackShift, snappedAt: snapped.at }
  }
  const move = (e: PointerEvent) => {
    const s = session.current
    if (!s) return
    if (!s.moved && Math.hypot(e.clientX - s.x, e.clientY - s.y) < 3) return
    s.moved = true
    setView(compute(s, e))
  }
  /** Ends the drag; returns whether it moved anything (a press without a move is a click). */
  const end = (e: PointerEvent): boolean => {
    const s = session.current
    session.current = undefined
    setView(undefined)
    if (!s?.moved) return false
    commit(compute(s, e))
    return true
  }
  const commit = (v: DragView) => {
    const edit = env.store.current().edit
    let result: Result | undefined
    if (v.kind === 'move') {
      const moves = v.refs.flatMap((r) => {
        const t = timed(r)
        return t ? [{ ref: r, start: t.start + v.delta }] : []
      })
      result = moveClips(edit, moves, v.trackShift)
    } else {
      const t = timed(v.refs[0]!)
      if (t) result = trimClip(edit, t.ref, v.kind, (v.kind === 'start' ? t.start : t.start + t.length) + v.delta, t)
    }
    if (result) env.store.change(v.kind === 'move' ? (v.trackShift ? 'Move to another track' : 'Move') : 'Trim', result.edit, result.selected)
  }
  return { view, begin, move, end }
}
