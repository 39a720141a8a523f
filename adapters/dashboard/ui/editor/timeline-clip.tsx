import type { Timed } from './clip-times.js'
import { clipLabel, secs } from './clip-label.js'
import { assetType } from './edit-doc.js'
import type { DragKind } from './timeline-drag.js'

interface Props {
  timed: Timed
  /** Where it is drawn now: its own times, or where a drag in progress puts it. */
  start: number
  length: number
  pxPerSecond: number
  selected: boolean
  hasIssue: boolean
  onPress(e: PointerEvent, kind: DragKind): void
  onMove(e: PointerEvent): void
  onRelease(e: PointerEvent): void
  onKeySelect(additive: boolean): void
}

/**
 * One clip as a bar: its body moves it, its two edges trim it. The data attributes carry what the JSON says
 * (tests and extensions find clips by them); the accessible name says the same in words.
 */
export function TimelineClip(p: Props) {
  const { timed } = p
  const type = assetType(timed.clip)
  const label = clipLabel(timed.clip)
  const name = `${type} “${label}”, track ${timed.ref.track + 1}, from ${secs(timed.start)} for ${secs(timed.length)}${timed.exact ? '' : ' (worked out)'}`
  const edge = (kind: 'start' | 'end') => (
    <span
      class={`edge edge-${kind}`}
      aria-hidden="true"
      data-edge={kind}
      onPointerDown={(e) => (e.stopPropagation(), p.onPress(e as unknown as PointerEvent, kind))}
      onPointerMove={(e) => p.onMove(e as unknown as PointerEvent)}
      onPointerUp={(e) => (e.stopPropagation(), p.onRelease(e as unknown as PointerEvent))}
    />
  )
  return (
    // biome-ignore lint/a11y/useSemanticElements: a bar moved by pointer drags with two trim handles inside; a <button> would turn every press into a click and take the form buttons' look
    <div
      role="button"
      tabIndex={0}
      class={`clip clip-${type}${p.selected ? ' selected' : ''}${p.hasIssue ? ' has-issue' : ''}${timed.exact ? '' : ' inexact'}`}
      style={{ left: `${p.start * p.pxPerSecond}px`, width: `${Math.max(4, p.length * p.pxPerSecond)}px` }}
      aria-label={name}
      aria-pressed={p.selected}
      data-track={timed.ref.track}
      data-clip={timed.ref.clip}
      data-start={timed.start}
      data-length={timed.length}
      onPointerDown={(e) => p.onPress(e as unknown as PointerEvent, 'move')}
      onPointerMove={(e) => p.onMove(e as unknown as PointerEvent)}
      onPointerUp={(e) => p.onRelease(e as unknown as PointerEvent)}
      onKeyDown={(e) => {
        // Enter selects; Space is the editor's play key here too (keyboard.ts), as in every editor.
        if (e.key !== 'Enter') return
        e.preventDefault()
        p.onKeySelect(e.shiftKey || e.ctrlKey || e.metaKey)
      }}
    >
      {edge('start')}
      <span class="clip-type">{type}</span> <span class="clip-text">{label}</span>
      {edge('end')}
    </div>
  )
}
