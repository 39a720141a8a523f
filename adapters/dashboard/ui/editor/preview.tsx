import './preview.css'
import { useRef } from 'preact/hooks'
import { IssueList } from '../components.js'
import type { Timed } from './clip-times.js'
import { clipLabel, secs } from './clip-label.js'
import { assetType, sameRef } from './edit-doc.js'
import { type ClipBox, clipBoxes } from './layout.js'
import { useMediaSizes } from './media-size.js'
import { outputSize } from './output-frame.js'
import { usePreviewDrag } from './preview-drag.js'
import type { Shown } from './preview-frame.js'
import type { EditorStore, Step } from './store.js'

interface Props {
  store: EditorStore
  step: Step
  times: Timed[][]
  playhead: number
  yAxis: 'up' | 'down'
  frame: { shown?: Shown; error?: Error; busy: boolean }
  playing: boolean
  togglePlay(): void
}

const pct = (n: number) => `${n * 100}%`

/**
 * The renderer's own frame under the playhead, with a box over each object that shows then: a press selects
 * its clip, a drag moves it (`offset`), the corner handle scales it (`scale`); while dragging, the nine
 * `position` anchors are drawn and snapped to.
 */
export function Preview({ store, step, times, playhead, yAxis, frame, playing, togglePlay }: Props) {
  const stage = useRef<HTMLDivElement>(null)
  const media = useMediaSizes()
  const size = outputSize(step.edit.output)
  const drag = usePreviewDrag({ store, frame: size, yAxis, zoom: () => (stage.current?.clientWidth ?? size.width) / size.width })
  const boxes = clipBoxes(step.edit, times, playhead, yAxis, media)
  const { shown } = frame
  // A picture of an earlier edit or time stays until the next one comes, dimmed.
  const stale = !!shown && !playing && (shown.edit !== step.edit || Math.abs(shown.time - playhead) > 1e-6)

  const press = (e: PointerEvent, b: ClipBox, kind: 'move' | 'scale') => {
    if (e.button !== 0) return
    e.stopPropagation()
    if (!step.selection.some((r) => sameRef(r, b.ref)) || step.selection.length > 1) store.select([b.ref])
    drag.begin(e, b, kind)
  }
  const box = (b: ClipBox) => {
    const v = drag.view && sameRef(drag.view.box.ref, b.ref) ? drag.view : b
    const selected = step.selection.some((r) => sameRef(r, b.ref))
    return (
      // biome-ignore lint/a11y/useSemanticElements: a pointer handle over the frame (a drag moves it); keyboard users reach the same clip on the timeline
      <div
        role="button"
        tabIndex={-1}
        class={`object${selected ? ' selected' : ''}`}
        aria-label={`${assetType(b.clip)} “${clipLabel(b.clip)}” on the preview`}
        aria-pressed={selected}
        data-track={b.ref.track}
        data-clip={b.ref.clip}
        style={{ left: pct(v.x / size.width), top: pct(v.y / size.height), width: pct(v.width / size.width), height: pct(v.height / size.height) }}
        onPointerDown={(e) => press(e as unknown as PointerEvent, b, 'move')}
        onPointerMove={(e) => drag.move(e as unknown as PointerEvent)}
        onPointerUp={(e) => drag.end(e as unknown as PointerEvent)}
      >
        {selected && (
          <span
            class="scale-handle"
            aria-hidden="true"
            onPointerDown={(e) => press(e as unknown as PointerEvent, b, 'scale')}
            onPointerMove={(e) => drag.move(e as unknown as PointerEvent)}
            onPointerUp={(e) => (e.stopPropagation(), drag.end(e as unknown as PointerEvent))}
          />
        )}
      </div>
    )
  }
  const anchors = drag.view?.kind === 'move' ? drag.view : undefined

  return (
    <section class="card preview" aria-labelledby="preview-title">
      <h2 id="preview-title">Preview</h2>
      <div class="stage" ref={stage} style={{ aspectRatio: `${size.width} / ${size.height}` }} onPointerDown={() => store.select([])}>
        {shown ? (
          <img
            class={stale ? 'frame stale' : 'frame'}
            src={shown.url}
            data-time={shown.time}
            alt={`the frame at ${secs(shown.time)}, drawn by the renderer`}
            draggable={false}
          />
        ) : (
          <p class="muted stage-wait">{frame.error ? 'No frame.' : 'Drawing the first frame…'}</p>
        )}
        <div class="overlay">
          {boxes.map(box)}
          {anchors &&
            [0, 0.5, 1].flatMap((ay) =>
              [0, 0.5, 1].map((ax) => (
                <span
                  class={`anchor${anchors.snapped.x === ax && anchors.snapped.y === ay ? ' on' : ''}`}
                  style={{ left: pct(ax), top: pct(ay) }}
                  aria-hidden="true"
                />
              )),
            )}
        </div>
      </div>
      <div class="toolbar">
        <button type="button" onClick={togglePlay} aria-pressed={playing}>
          {playing ? 'Pause' : 'Play'}
        </button>
        <output aria-live="off">{secs(playhead)}</output>
        <span class="muted" role="status">
          {frame.busy ? 'Drawing…' : shown ? `Showing ${secs(shown.time)}${stale ? ' (of an earlier edit)' : ''}` : ''}
        </span>
      </div>
      <IssueList error={frame.error} id="preview-error" />
    </section>
  )
}
