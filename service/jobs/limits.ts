import { outputSize, scaleToSize, type ValidEdit } from '../../core/index.js'
import type { Limits } from '../config.js'
import { ServiceError } from '../errors.js'

/**
 * Checks an edit against the service's cost limits before it is queued: its timeline duration (known from numeric
 * starts and lengths; smart values are checked when rendering) and output size. How much input it carries is
 * `checkInputBounds`'s.
 */
export function checkLimits(edit: ValidEdit, limits: Limits, sandbox: boolean): void {
  const tracks = edit.timeline.tracks
  const max = sandbox ? limits.durationSandbox : limits.durationLive
  let end = 0
  let at = ''
  tracks.forEach((t, ti) =>
    t.clips.forEach((c, ci) => {
      // Blamed on what carries the clip past the limit: a start already past it, else the length.
      if (typeof c.start === 'number' && typeof c.length === 'number' && c.start + c.length > end)
        (end = c.start + c.length), (at = `timeline.tracks[${ti}].clips[${ci}].${c.start >= max ? 'start' : 'length'}`)
    }),
  )
  if (end > max) throw exceeded(at, `the timeline lasts ${end} s; the limit for ${sandbox ? 'sandbox' : 'live'} keys is ${max} s`)
  // The frame the edit is laid out at, and the picture written where `scaleTo` asks for another.
  for (const size of [outputSize(edit.output), scaleToSize(edit.output)]) {
    if (size && size.width * size.height > limits.pixels)
      throw exceeded('output', `${size.width}x${size.height} output exceeds the limit of ${limits.pixels} pixels per frame`)
  }
}

/** A time limit for smart-timed edits: checked again by the worker once the real duration is known. */
export function checkDuration(seconds: number, limits: Limits, sandbox: boolean): void {
  const max = sandbox ? limits.durationSandbox : limits.durationLive
  if (seconds > max) throw exceeded('timeline', `the timeline lasts ${seconds.toFixed(1)} s; the limit for ${sandbox ? 'sandbox' : 'live'} keys is ${max} s`)
}

const exceeded = (path: string, message: string) => new ServiceError('E_LIMIT_EXCEEDED', `${path}: ${message}`, { path, issues: [{ path, message }] })

/** Seconds an edit lasts as far as its numbers say (smart timing is settled at render). */
export function knownDuration(edit: {
  timeline: { tracks: { clips: { start?: unknown; length?: unknown }[] }[] }
  output?: { range?: { length?: unknown } }
}): number {
  let end = 0
  for (const t of edit.timeline.tracks)
    for (const c of t.clips) if (typeof c.start === 'number' && typeof c.length === 'number') end = Math.max(end, c.start + c.length)
  const range = edit.output?.range
  return typeof range?.length === 'number' ? Math.min(end, range.length) : end
}
