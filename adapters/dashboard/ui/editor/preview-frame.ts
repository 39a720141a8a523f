import { useEffect, useRef, useState } from 'preact/hooks'
import { ApiError } from '../api.js'
import type { Obj } from './edit-doc.js'
import { closeFrames, frameAt } from './frames.js'

/** A pause in scrubbing or editing this long asks for the frame (frame previews are rate-limited per key). */
const SETTLE_MS = 150
/** While playing, at most one frame per this many ms: 2 a second stays within the 120-a-minute frame limit. */
const PLAY_EVERY_MS = 500
/** After a 429, the next try waits this long. */
const BACKOFF_MS = 2000

export interface Shown {
  url: string
  time: number
  /** The edit it is a picture of (the overlay draws the same edit's boxes). */
  edit: Obj
}

/**
 * The picture under the playhead. One frame is asked for at a time: when it comes it is shown — even if the
 * edit or the playhead has moved on meanwhile, so a long drag still shows pictures — and then the latest
 * (edit, time) is asked for, if it is not the one shown. While playing, frames follow the moving playhead,
 * as fast as they come within the frame limit.
 */
export function usePreviewFrame(edit: Obj, time: number, playing: boolean) {
  const [shown, setShown] = useState<Shown>()
  const [error, setError] = useState<Error>()
  // The edit the error is about: its issues' paths name that edit's clips, which a later edit may have moved.
  const [failed, setFailed] = useState<Obj>()
  const [busy, setBusy] = useState(false)
  const wanted = useRef({ edit, time, playing })
  wanted.current = { edit, time, playing }
  const pump = useRef<{ running: boolean; last?: { edit: Obj; time: number }; timer?: number; stop: AbortController }>({
    running: false,
    stop: new AbortController(),
  })

  useEffect(() => () => shown && URL.revokeObjectURL(shown.url), [shown])
  // The editor closes (another dashboard page): frames in flight stop, and the server's preview session ends.
  useEffect(() => () => (pump.current.stop.abort(), window.clearTimeout(pump.current.timer), closeFrames()), [])

  const run = async () => {
    const p = pump.current
    if (p.running || p.stop.signal.aborted) return
    p.running = true
    setBusy(true)
    let wait = 0
    try {
      for (;;) {
        const w = wanted.current
        if (p.last && p.last.edit === w.edit && p.last.time === w.time) break
        const began = performance.now()
        try {
          const png = await frameAt(w.edit, w.time, w.playing ? 'play' : 'still', p.stop.signal)
          if (p.stop.signal.aborted) return
          p.last = { edit: w.edit, time: w.time }
          setShown({ url: URL.createObjectURL(png), time: w.time, edit: w.edit })
          setError(undefined)
        } catch (e) {
          if (p.stop.signal.aborted) return
          setError(e as Error)
          setFailed(w.edit)
          // Said of this edit at this time: not asked again until one of them changes (or, for 429, soon).
          p.last = { edit: w.edit, time: w.time }
          if (e instanceof ApiError && e.status === 429) wait = BACKOFF_MS
          if (wait) break
        }
        if (wanted.current.playing) await new Promise((r) => window.setTimeout(r, Math.max(0, PLAY_EVERY_MS - (performance.now() - began))))
      }
    } finally {
      p.running = false
      if (!p.stop.signal.aborted) setBusy(false)
    }
    if (wait) p.timer = window.setTimeout(() => ((p.last = undefined), void run()), wait)
  }

  // Still: once the edit and the playhead settle. Playing: at once (the loop paces itself).
  useEffect(() => {
    window.clearTimeout(pump.current.timer)
    pump.current.timer = window.setTimeout(() => void run(), playing ? 0 : SETTLE_MS)
  }, [edit, time, playing])

  return { shown, error, failed, busy }
}
