import { useEffect, useMemo, useRef, useState } from 'preact/hooks'
import { apiBlob } from '../api'
import { IssueList } from '../components'
import { parseEdit } from './timeline-editor'

/** What the scrubber spans when no clip has numeric times (`"auto"`, `"end"`, merge fields). */
const DEFAULT_SECONDS = 10
/** A release, or a run of arrow keys, asks once: previews are rate-limited per key. */
const SETTLE_MS = 250

type Obj = Record<string, unknown>
const isObj = (x: unknown): x is Obj => !!x && typeof x === 'object' && !Array.isArray(x)

/** Where the timeline ends now: the latest `start + length` of its clips with numeric times (0 without any). */
export function timelineEnd(tracks: unknown[]): number {
  let end = 0
  for (const track of tracks) {
    const clips = isObj(track) && Array.isArray(track.clips) ? track.clips : []
    for (const c of clips) if (isObj(c) && typeof c.start === 'number' && typeof c.length === 'number') end = Math.max(end, c.start + c.length)
  }
  return Math.round(end * 1000) / 1000
}

/** The edit's known length in seconds, for the scrubber (10 s when the text says nothing usable). */
function knownLength(text: string): number {
  const edit = parseEdit(text)
  const tracks = !(edit instanceof Error) && isObj(edit.timeline) && Array.isArray(edit.timeline.tracks) ? edit.timeline.tracks : []
  return timelineEnd(tracks) || DEFAULT_SECONDS
}

/**
 * Scrub the draft: a range over its length, and the frame at that time drawn by the server
 * (`POST /v1/render/frame`: nothing stored, nothing charged) at the edit's own output size — asked for when
 * the thumb is let go or with the button. An edit the server refuses says why, issue by issue.
 */
export function FramePreview({ text }: { text: string }) {
  const length = useMemo(() => knownLength(text), [text])
  const [time, setTime] = useState(0)
  const [shown, setShown] = useState<{ url: string; time: number }>()
  const [error, setError] = useState<Error>()
  const [busy, setBusy] = useState(false)
  const pending = useRef<{ timer?: number; abort?: AbortController }>({})
  const at = Math.min(time, length)

  // Each frame is an object URL of its own: let the previous one go, and the last when the page closes.
  useEffect(() => () => shown && URL.revokeObjectURL(shown.url), [shown])
  useEffect(() => () => window.clearTimeout(pending.current.timer), [])
  // An error said of an earlier text would mislead once the text has changed.
  useEffect(() => setError(undefined), [text])

  const load = async (t: number) => {
    const edit = parseEdit(text)
    if (edit instanceof Error) return setError(edit)
    pending.current.abort?.abort()
    const abort = new AbortController()
    pending.current.abort = abort
    setBusy(true)
    try {
      const png = await apiBlob('/v1/render/frame', { ...edit, time: t })
      if (abort.signal.aborted) return
      setShown({ url: URL.createObjectURL(png), time: t })
      setError(undefined)
    } catch (e) {
      if (!abort.signal.aborted) setError(e as Error)
    } finally {
      if (!abort.signal.aborted) setBusy(false)
    }
  }
  const settle = (t: number) => {
    window.clearTimeout(pending.current.timer)
    pending.current.timer = window.setTimeout(() => void load(t), SETTLE_MS)
  }

  return (
    <section class="card frame-preview" aria-labelledby="frame-title">
      <h2 id="frame-title">Frame preview</h2>
      <div class="toolbar">
        <label for="frame-time">Time</label>
        <input
          id="frame-time"
          type="range"
          min={0}
          max={length}
          step={0.05}
          value={at}
          aria-valuetext={`${at.toFixed(2)} seconds`}
          onInput={(e) => setTime(Number(e.currentTarget.value))}
          onChange={(e) => settle(Number(e.currentTarget.value))}
        />
        <output for="frame-time">
          {at.toFixed(2)} s of {length} s
        </output>
        <button type="button" onClick={() => load(at)} disabled={busy}>
          {busy ? 'Drawing…' : 'Preview frame'}
        </button>
      </div>
      <IssueList error={error} id="frame-error" />
      {shown && (
        <figure>
          <img class="frame" src={shown.url} alt={`the frame at ${shown.time.toFixed(2)} s`} data-time={shown.time} />
          <figcaption class="muted">The frame at {shown.time.toFixed(2)} s, at the edit's output size; nothing is stored or charged.</figcaption>
        </figure>
      )}
    </section>
  )
}
