import { outputSize, type ValidEdit } from '../../core/index.js'
import type { Limits } from '../config.js'
import { ServiceError } from '../errors.js'

/**
 * Checks an edit against the service limits before it is queued: tracks, clips, timeline duration (known
 * from numeric starts and lengths; smart values are checked when rendering) and output size.
 */
export function checkLimits(edit: ValidEdit, limits: Limits, sandbox: boolean): void {
  const tracks = edit.timeline.tracks
  if (tracks.length > limits.tracks) throw exceeded('timeline.tracks', `${tracks.length} tracks exceed the limit of ${limits.tracks}`)
  const clips = tracks.reduce((n, t) => n + t.clips.length, 0)
  if (clips > limits.clips) throw exceeded('timeline.tracks', `${clips} clips exceed the limit of ${limits.clips}`)
  const max = sandbox ? limits.durationSandbox : limits.durationLive
  let end = 0
  let at = ''
  tracks.forEach((t, ti) =>
    t.clips.forEach((c, ci) => {
      if (typeof c.start === 'number' && typeof c.length === 'number' && c.start + c.length > end)
        (end = c.start + c.length), (at = `timeline.tracks[${ti}].clips[${ci}]`)
    }),
  )
  if (end > max) throw exceeded(`${at}.length`, `the timeline lasts ${end} s; the limit for ${sandbox ? 'sandbox' : 'live'} keys is ${max} s`)
  tracks.forEach((t, ti) =>
    t.clips.forEach((c, ci) => {
      const a = c.asset as { type: string; html?: string; css?: string; src?: string }
      const markup = a.type === 'html' || a.type === 'html5' ? (a.html ?? '').length + (a.css ?? '').length : a.type === 'svg' ? (a.src ?? '').length : 0
      const field = a.type === 'svg' ? 'src' : 'html'
      if (markup > limits.markupChars)
        throw exceeded(`timeline.tracks[${ti}].clips[${ci}].asset.${field}`, `${markup} characters of markup exceed the limit of ${limits.markupChars}`)
    }),
  )
  const size = outputSize(edit.output)
  if (size.width * size.height > limits.pixels)
    throw exceeded('output', `${size.width}x${size.height} output exceeds the limit of ${limits.pixels} pixels per frame`)
}

/** A time limit for smart-timed edits: checked again by the worker once the real duration is known. */
export function checkDuration(seconds: number, limits: Limits, sandbox: boolean): void {
  const max = sandbox ? limits.durationSandbox : limits.durationLive
  if (seconds > max) throw exceeded('timeline', `the timeline lasts ${seconds.toFixed(1)} s; the limit for ${sandbox ? 'sandbox' : 'live'} keys is ${max} s`)
}

const exceeded = (path: string, message: string) => new ServiceError('E_LIMIT_EXCEEDED', `${path}: ${message}`, { path, issues: [{ path, message }] })
