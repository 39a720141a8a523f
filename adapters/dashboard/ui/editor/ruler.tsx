import { useRef } from 'preact/hooks'
import { onFrame } from './clip-times.js'
import { secs } from './clip-label.js'

interface Props {
  /** Seconds the ruler spans. */
  span: number
  pxPerSecond: number
  playhead: number
  fps: number
  onSeek(time: number): void
}

/** Seconds between labelled ticks: about one label per 60 px at any zoom. */
const STEPS = [0.1, 0.25, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300]
const labelStep = (pxPerSecond: number) => STEPS.find((s) => s * pxPerSecond >= 60) ?? 600

/**
 * The time ruler: ticks with their seconds, and a slider for the playhead — pressed or dragged with the
 * pointer, or moved by the arrow keys (a frame; Shift: a second), Home and End.
 */
export function Ruler({ span, pxPerSecond, playhead, fps, onSeek }: Props) {
  const box = useRef<HTMLDivElement>(null)
  const step = labelStep(pxPerSecond)
  const ticks: number[] = []
  for (let t = 0; t <= span + 1e-9; t += step) ticks.push(Math.round(t * 1000) / 1000)
  const at = (e: PointerEvent) => onFrame(Math.max(0, Math.min(span, (e.clientX - box.current!.getBoundingClientRect().left) / pxPerSecond)), fps)
  const key = (e: KeyboardEvent) => {
    const by = e.shiftKey ? 1 : 1 / fps
    const next = { ArrowLeft: playhead - by, ArrowRight: playhead + by, Home: 0, End: span }[e.key]
    if (next === undefined) return
    e.preventDefault()
    e.stopPropagation()
    onSeek(onFrame(Math.max(0, Math.min(span, next)), fps))
  }
  return (
    <div
      ref={box}
      class="ruler"
      role="slider"
      tabIndex={0}
      aria-label="Playhead"
      aria-valuemin={0}
      aria-valuemax={span}
      aria-valuenow={playhead}
      aria-valuetext={secs(playhead)}
      onPointerDown={(e) => (e.currentTarget.setPointerCapture?.(e.pointerId), onSeek(at(e)))}
      onPointerMove={(e) => e.buttons === 1 && onSeek(at(e))}
      onKeyDown={key}
    >
      {ticks.map((t) => (
        <span class="tick" style={{ left: `${t * pxPerSecond}px` }}>
          {t}s
        </span>
      ))}
    </div>
  )
}
