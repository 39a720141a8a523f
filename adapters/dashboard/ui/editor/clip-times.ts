import { assetType, type ClipRef, clipsOf, isObj, num, type Obj, tracksOf } from './edit-doc.js'
import { mergeValues, sampled } from './placeholders.js'

/** A clip's place on the timeline in seconds, whatever its JSON says (`auto`, `end`, a merge field). */
export interface Timed {
  ref: ClipRef
  clip: Obj
  start: number
  length: number
  /** Whether `start` and `length` are plain numbers in the JSON (else they are worked out, and shown so). */
  exact: boolean
}

/** What a clip of unknown length (`"auto"` on a source not yet probed) is drawn as. */
const UNKNOWN_LENGTH = 3

/**
 * Every clip's times, track by track: numbers as they are, merge fields by their sample values, `"auto"` start
 * after the previous clip of its track (Shotstack's rule), `"end"` length to the end of the rest of the timeline.
 */
export function clipTimes(edit: Obj): Timed[][] {
  const merge = mergeValues(edit)
  const ends: { timed: Timed; toEnd: boolean }[] = []
  const tracks = tracksOf(edit).map((track, t) => {
    let previousEnd = 0
    return clipsOf(track).flatMap((clip, c) => {
      if (!isObj(clip)) return []
      const s = num(sampled(clip.start, merge))
      const l = num(sampled(clip.length, merge))
      const start = Math.max(0, s ?? previousEnd)
      const timed: Timed = {
        ref: { track: t, clip: c },
        clip,
        start,
        length: l ?? UNKNOWN_LENGTH,
        exact: typeof clip.start === 'number' && typeof clip.length === 'number',
      }
      ends.push({ timed, toEnd: clip.length === 'end' })
      previousEnd = start + timed.length
      return [timed]
    })
  })
  const end = Math.max(0, ...ends.filter((e) => !e.toEnd).map((e) => e.timed.start + e.timed.length))
  for (const e of ends) if (e.toEnd) e.timed.length = Math.max(end - e.timed.start, 1)
  return tracks
}

/** Where the timeline ends: the latest clip end (0 without clips). */
export const timelineEnd = (times: Timed[][]) => Math.max(0, ...times.flat().map((t) => t.start + t.length))

/** Whether a clip draws pictures (audio clips have no box on the preview). */
export const isVisual = (clip: Obj) => !['audio', 'text-to-speech', 'luma'].includes(assetType(clip))

/** Seconds on a frame boundary, to the millisecond: what a drag or a nudge writes. */
export const onFrame = (s: number, fps: number) => Math.round((Math.round(s * fps) / fps) * 1000) / 1000
