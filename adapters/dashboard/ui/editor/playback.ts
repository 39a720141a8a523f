import { useEffect, useRef, useState } from 'preact/hooks'
import type { Timed } from './clip-times.js'
import { assetType, getIn, num, type Obj } from './edit-doc.js'

/** How often the playhead moves while playing (the pictures follow at their own, slower pace). */
const TICK_MS = 1000 / 15

/** A sound of the edit: where it plays on the timeline and from where in its file. */
interface Sound {
  src: string
  start: number
  end: number
  trim: number
  speed: number
  volume: number
}

/** The soundtrack and every audio and video clip with a plain `src` (keyframed volumes play at full volume). */
export function soundsOf(edit: Obj, times: Timed[][], end: number): Sound[] {
  const out: Sound[] = []
  const track = getIn(edit, ['timeline', 'soundtrack', 'src'])
  if (typeof track === 'string') out.push({ src: track, start: 0, end, trim: 0, speed: 1, volume: num(getIn(edit, ['timeline', 'soundtrack', 'volume'])) ?? 1 })
  for (const t of times.flat()) {
    const src = getIn(t.clip, ['asset', 'src'])
    if (!['audio', 'video'].includes(assetType(t.clip)) || typeof src !== 'string') continue
    const a = (k: string, d: number) => num(getIn(t.clip, ['asset', k])) ?? d
    out.push({ src, start: t.start, end: t.start + t.length, trim: a('trim', 0), speed: a('speed', 1), volume: a('volume', 1) })
  }
  return out.filter((s) => s.volume > 0)
}

/**
 * Play and pause: the playhead runs in real time from where it is (from the start when it is at the end) and
 * stops at the end. The edit's sounds play along in the browser — each file started at its place when the
 * playhead enters its clip and paused when it leaves — as far as the browser can read them.
 */
export function usePlayback(opts: { end: number; playhead: number; seek(t: number): void; sounds: () => Sound[] }) {
  const [playing, setPlaying] = useState(false)
  const now = useRef(opts.playhead)
  now.current = opts.playhead
  useEffect(() => {
    if (!playing) return
    const from = now.current >= opts.end - 1e-3 ? 0 : now.current
    const began = performance.now()
    const players = opts.sounds().map((s) => ({ s, el: Object.assign(new Audio(s.src), { volume: Math.min(1, s.volume), preload: 'auto' }) }))
    const tick = () => {
      const t = Math.min(opts.end, from + (performance.now() - began) / 1000)
      opts.seek(Math.round(t * 1000) / 1000)
      for (const { s, el } of players) {
        const inside = s.start <= t && t < s.end
        if (inside && el.paused) {
          el.currentTime = s.trim + (t - s.start) * s.speed
          el.playbackRate = s.speed
          void el.play().catch(() => {})
        } else if (!inside && !el.paused) el.pause()
      }
      if (t >= opts.end) setPlaying(false)
    }
    const timer = window.setInterval(tick, TICK_MS)
    tick()
    return () => {
      window.clearInterval(timer)
      for (const { el } of players) el.pause()
    }
  }, [playing])
  return { playing, toggle: () => setPlaying((p) => !p) }
}
