import { useEffect, useState } from 'preact/hooks'
import { api, ApiError, isActive, type Render, renderEvents } from './api'

/** How often the fallback asks while the render runs (only when its events cannot be read). */
const POLL_MS = 1000

/**
 * One render, live: its records from the events stream while it runs, so nothing polls; `withData` adds the
 * submitted edit, read once first (a render that has already ended needs nothing more). Should the stream
 * fail (a proxy that buffers it, a server without it), the status is polled instead until the render ends.
 */
export function useLiveRender(id: string, withData: boolean) {
  const [render, setRender] = useState<Render>()
  const [error, setError] = useState<Error>()
  useEffect(() => {
    const stop = new AbortController()
    let data: unknown
    let timer: number | undefined
    const show = (r: Render) => {
      if (stop.signal.aborted) return
      setRender(withData ? { ...r, data } : r)
      setError(undefined)
    }
    const read = async () => {
      const r = await api<Render>('GET', `/v1/render/${id}${withData ? '?data=true' : ''}`)
      data = r.data
      show(r)
      return r
    }
    const poll = async () => {
      try {
        if (!isActive(await read())) return
      } catch (e) {
        if (!stop.signal.aborted) setError(e as Error)
      }
      if (!stop.signal.aborted) timer = window.setTimeout(poll, POLL_MS)
    }
    const follow = async () => {
      if (withData && !isActive(await read())) return
      await renderEvents(id, show, stop.signal)
    }
    follow().catch((e) => {
      if (stop.signal.aborted) return
      // No such render (or no access): polling would only repeat that.
      if (e instanceof ApiError && e.status >= 400 && e.status < 500) return setError(e)
      void poll()
    })
    return () => {
      stop.abort()
      window.clearTimeout(timer)
    }
  }, [id, withData])
  return { data: render, error }
}
