import type { SourceRecord as Source } from '../../../../service/api-types.js'
import { describeJsonError } from '../json-error'
import { timelineEnd } from './frame-preview'
import { EXAMPLE } from './playground'
import { PLAYGROUND_DRAFT as DRAFT } from '../drafts'

/** How long a still image lasts when it is added to the draft (seconds). */
const STILL_SECONDS = 3

type Obj = Record<string, unknown>
const isObj = (x: unknown): x is Obj => !!x && typeof x === 'object' && !Array.isArray(x)

/**
 * Adds a ready source to an edit: a font to `timeline.fonts` (once), anything else as a clip of its type on a
 * new bottom track, starting where the timeline ends. Returns an Error (the edit untouched) if it cannot.
 */
export function addSource(edit: Obj, s: Source): Obj | Error {
  if (!s.url || !s.type) return new Error('Only a ready source can be used in the playground.')
  const timeline = edit.timeline === undefined ? {} : edit.timeline
  if (!isObj(timeline)) return new Error('Not added: the playground draft\'s "timeline" is not an object; fix it in the playground first.')
  if (s.type === 'font') {
    const fonts = timeline.fonts === undefined ? [] : timeline.fonts
    if (!Array.isArray(fonts)) return new Error('Not added: the playground draft\'s "timeline.fonts" is not an array; fix it in the playground first.')
    const has = fonts.some((f) => isObj(f) && f.src === s.url)
    return { ...edit, timeline: { ...timeline, fonts: has ? fonts : [...fonts, { src: s.url }] } }
  }
  const tracks = timeline.tracks === undefined ? [] : timeline.tracks
  if (!Array.isArray(tracks)) return new Error('Not added: the playground draft\'s "timeline.tracks" is not an array; fix it in the playground first.')
  const length = s.type === 'image' ? STILL_SECONDS : s.duration ? Math.round(s.duration * 1000) / 1000 : 'auto'
  const clip = { asset: { type: s.type, src: s.url }, start: timelineEnd(tracks), length }
  return { ...edit, timeline: { ...timeline, tracks: [...tracks, { clips: [clip] }] } }
}

/**
 * "Use in playground": the source joins the playground's draft (its example while it has none) and the
 * playground opens. A draft that is not a JSON object is left as it is and the Error says why.
 */
export function addToPlayground(s: Source): Error | undefined {
  const saved = sessionStorage.getItem(DRAFT)
  let edit: unknown
  try {
    edit = saved === null ? structuredClone(EXAMPLE) : JSON.parse(saved)
  } catch (err) {
    return new Error(`Not added: the playground's draft is not valid JSON (${describeJsonError(err, saved ?? '')}); fix it in the playground first.`)
  }
  if (!isObj(edit)) return new Error("Not added: the playground's draft is not a JSON object; fix it in the playground first.")
  const next = addSource(edit, s)
  if (next instanceof Error) return next
  sessionStorage.setItem(DRAFT, JSON.stringify(next, null, 2))
  location.hash = '#/playground'
  return undefined
}
