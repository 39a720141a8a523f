import { useEffect, useRef, useState } from 'preact/hooks'
import { ApiError } from '../api'
import type { Obj } from './edit-doc'
import { frameAt } from './frames'

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
 * The picture under the playhead. Still: the frame at `time` once edits and scrubbing settle, the previous one
 * staying until it comes (a newer request cancels an older one). Playing: frames one after another at the
 * moving playhead, as fast as they come within the frame limit.
 */
export function usePreviewFrame(edit: Obj, time: number, playing: boolean) {
  const [shown, setShown] = useState<Shown>()
  const [error, setError] = useState<Error>()
  const [busy, setBusy] = useState(false)
  const latest = useRef(time)
  latest.current = time
  const [retry, setRetry] = useState(0)

  useEffect(() => () => shown && URL.revokeObjectURL(shown.url), [shown])

  const draw = async (t: number, abort: AbortController) => {
    setBusy(true)
    try {
      const png = await frameAt(edit, t, playing ? 'play' : 'still', abort.signal)
      if (abort.signal.aborted) return
      setShown({ url: URL.createObjectURL(png), time: t, edit })
      setError(undefined)
    } catch (e) {
      if (abort.signal.aborted) return
      setError(e as Error)
      if (e instanceof ApiError && e.status === 429) window.setTimeout(() => setRetry((n) => n + 1), BACKOFF_MS)
    } finally {
      if (!abort.signal.aborted) setBusy(false)
    }
  }

  // Still: one frame per settled (edit, time).
  useEffect(() => {
    if (playing) return
    const abort = new AbortController()
    const timer = window.setTimeout(() => void draw(time, abort), SETTLE_MS)
    return () => (window.clearTimeout(timer), abort.abort())
  }, [edit, time, playing, retry])

  // Playing: a loop that always asks for where the playhead is now.
  useEffect(() => {
    if (!playing) return
    const abort = new AbortController()
    void (async () => {
      while (!abort.signal.aborted) {
        const began = performance.now()
        await draw(latest.current, abort)
        const wait = PLAY_EVERY_MS - (performance.now() - began)
        if (wait > 0) await new Promise((r) => window.setTimeout(r, wait))
      }
    })()
    return () => abort.abort()
  }, [edit, playing])

  return { shown, error, busy }
}
