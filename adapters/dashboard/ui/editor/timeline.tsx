import './timeline.css'
import { useState } from 'preact/hooks'
import { type Timed, timelineEnd } from './clip-times.js'
import { type ClipRef, clipPath, sameRef } from './edit-doc.js'
import { Ruler } from './ruler.js'
import type { EditorStore, Step } from './store.js'
import { TimelineClip } from './timeline-clip.js'
import { type DragView, useTimelineDrag } from './timeline-drag.js'

const ROW_HEIGHT = 44
const ZOOMS = [10, 20, 40, 60, 80, 120, 160, 240, 400]

interface Props {
  store: EditorStore
  step: Step
  times: Timed[][]
  fps: number
  playhead: number
  onSeek(time: number): void
  /** Paths of clips the validation has issues with (`timeline.tracks[0].clips[1]`). */
  flagged: Set<string>
}

/** Where a bar is drawn while `view` drags it. */
function placed(t: Timed, view: DragView | undefined): { start: number; length: number; track: number } {
  const dragged = view?.refs.some((r) => sameRef(r, t.ref))
  if (!view || !dragged) return { start: t.start, length: t.length, track: t.ref.track }
  if (view.kind === 'move') return { start: t.start + view.delta, length: t.length, track: Math.max(0, t.ref.track + view.trackShift) }
  if (view.kind === 'end') return { start: t.start, length: Math.max(0.04, t.length + view.delta), track: t.ref.track }
  return { start: t.start + view.delta, length: Math.max(0.04, t.length - view.delta), track: t.ref.track }
}

/**
 * Tracks as rows (the first is drawn on top of the others), clips as bars on a ruler, with zoom and sideways
 * scrolling. A press selects (Shift or Ctrl: adds or removes), a drag moves the selected clips in time and
 * across tracks, an edge trims; a spare row below the last takes clips to a new track.
 */
export function Timeline({ store, step, times, fps, playhead, onSeek, flagged }: Props) {
  const [zoom, setZoom] = useState(4)
  const pxPerSecond = ZOOMS[zoom]!
  const drag = useTimelineDrag({ store, times, fps, playhead, pxPerSecond, rowHeight: ROW_HEIGHT })
  const span = Math.max(10, Math.ceil(timelineEnd(times)) + 5)
  const rows = times.length + 1
  const selected = (r: ClipRef) => step.selection.some((s) => sameRef(s, r))

  const press = (t: Timed, e: PointerEvent, kind: 'move' | 'start' | 'end') => {
    if (e.button !== 0) return
    const additive = e.shiftKey || e.ctrlKey || e.metaKey
    if (additive && kind === 'move') {
      store.select(selected(t.ref) ? step.selection.filter((s) => !sameRef(s, t.ref)) : [...step.selection, t.ref])
      return
    }
    if (!selected(t.ref) || kind !== 'move') store.select(kind === 'move' && selected(t.ref) ? step.selection : [t.ref])
    const refs = kind === 'move' && selected(t.ref) ? [...step.selection] : [t.ref]
    drag.begin(e, kind, refs)
  }
  const keySelect = (t: Timed, additive: boolean) =>
    store.select(additive ? (selected(t.ref) ? step.selection.filter((s) => !sameRef(s, t.ref)) : [...step.selection, t.ref]) : [t.ref])

  return (
    <section class="card timeline" aria-labelledby="timeline-title">
      <div class="toolbar">
        <h2 id="timeline-title">Timeline</h2>
        <button type="button" onClick={() => setZoom(Math.max(0, zoom - 1))} disabled={zoom === 0}>
          Zoom out
        </button>
        <button type="button" onClick={() => setZoom(Math.min(ZOOMS.length - 1, zoom + 1))} disabled={zoom === ZOOMS.length - 1}>
          Zoom in
        </button>
        <span class="muted">{pxPerSecond} px/s · drags snap to clip edges, the playhead and whole seconds (hold Alt not to)</span>
      </div>
      <div class="tl-body">
        <ul class="tl-heads" aria-label="Tracks">
          <li class="tl-ruler-gap" aria-hidden="true" />
          {times.map((_, t) => (
            <li style={{ height: `${ROW_HEIGHT}px` }}>Track {t + 1}</li>
          ))}
          <li class="muted" style={{ height: `${ROW_HEIGHT}px` }}>
            new track
          </li>
        </ul>
        {/* Ctrl+wheel zooms (a plain wheel scrolls as usual). */}
        <div
          class="tl-scroll"
          onWheel={(e) => {
            if (!e.ctrlKey) return
            e.preventDefault()
            setZoom((z) => Math.max(0, Math.min(ZOOMS.length - 1, z + (e.deltaY < 0 ? 1 : -1))))
          }}
        >
          <div class="tl-canvas" style={{ width: `${span * pxPerSecond}px` }}>
            <Ruler span={span} pxPerSecond={pxPerSecond} playhead={playhead} fps={fps} onSeek={onSeek} />
            <div class="tl-rows" style={{ height: `${rows * ROW_HEIGHT}px` }}>
              {Array.from({ length: rows }, (_, t) => (
                <div class="tl-row" style={{ top: `${t * ROW_HEIGHT}px`, height: `${ROW_HEIGHT}px` }} data-row={t} onPointerDown={() => store.select([])} />
              ))}
              {times.flat().map((t) => {
                const at = placed(t, drag.view)
                return (
                  <div class="tl-lane" style={{ top: `${at.track * ROW_HEIGHT + 4}px` }}>
                    <TimelineClip
                      timed={t}
                      start={at.start}
                      length={at.length}
                      pxPerSecond={pxPerSecond}
                      selected={selected(t.ref)}
                      hasIssue={flagged.has(clipPath(t.ref))}
                      onPress={(e, kind) => press(t, e, kind)}
                      onMove={drag.move}
                      onRelease={drag.end}
                      onKeySelect={(additive) => keySelect(t, additive)}
                    />
                  </div>
                )
              })}
              {drag.view?.snappedAt !== undefined && <div class="snap-guide" style={{ left: `${drag.view.snappedAt * pxPerSecond}px` }} aria-hidden="true" />}
            </div>
            <div class="playhead" style={{ left: `${playhead * pxPerSecond}px` }} aria-hidden="true" />
          </div>
        </div>
      </div>
    </section>
  )
}
