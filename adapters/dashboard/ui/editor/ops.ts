import { assetType, type ClipRef, clipAt, clipsOf, getIn, isObj, type Obj, sameRef, setIn, tracksOf } from './edit-doc.js'

// Pure changes of an edit. Each returns the new edit and the clip objects to select after it (found again by
// identity, since a change can move clips between tracks and renumber them).
export interface Result {
  edit: Obj
  selected: Obj[]
}

/** The shortest clip a trim leaves (seconds). */
export const MIN_LENGTH = 0.04
const ms = (s: number) => Math.round(s * 1000) / 1000
/** Media whose `trim` says where in the source the clip begins. */
const TRIMMED = ['video', 'audio']

/** The edit with its tracks replaced, empty tracks dropped (the API refuses a track without clips). */
function withTracks(edit: Obj, tracks: Obj[]): Obj {
  return setIn(
    edit,
    ['timeline', 'tracks'],
    tracks.filter((t) => clipsOf(t).length > 0),
  ) as Obj
}

/**
 * Moves clips to new start times (`moves` pairs each clip with its new start) and, with `trackShift`, that many
 * tracks down (up when negative; below the last track a new one is made). A clip that stays on its track keeps
 * its place in the list; one that changes track goes in by start time.
 */
export function moveClips(edit: Obj, moves: { ref: ClipRef; start: number }[], trackShift = 0): Result {
  const tracks = tracksOf(edit).map((t) => ({ ...t, clips: [...clipsOf(t)] }))
  const selected: Obj[] = []
  const arriving: { clip: Obj; track: number }[] = []
  for (const m of moves) {
    const clip = clipAt(edit, m.ref)
    if (!clip) continue
    const next = { ...clip, start: ms(Math.max(0, m.start)) }
    selected.push(next)
    const track = Math.max(0, m.ref.track + trackShift)
    if (track === m.ref.track) tracks[track]!.clips[m.ref.clip] = next
    else arriving.push({ clip: next, track }), (tracks[m.ref.track]!.clips[m.ref.clip] = undefined)
  }
  for (const t of tracks) t.clips = t.clips.filter((c) => c !== undefined)
  for (const m of arriving) {
    while (tracks.length <= m.track) tracks.push({ clips: [] })
    const list = tracks[m.track]!.clips
    const at = list.findIndex((c) => isObj(c) && typeof c.start === 'number' && c.start > (m.clip.start as number))
    list.splice(at < 0 ? list.length : at, 0, m.clip)
  }
  return { edit: withTracks(edit, tracks), selected }
}

/**
 * Trims a clip's `edge` to `time` (seconds on the timeline). The end sets `length`; the start moves `start` and
 * shortens `length`, and for video and audio advances `trim` by as much source time (× `speed`), never before
 * the source's beginning.
 */
export function trimClip(edit: Obj, ref: ClipRef, edge: 'start' | 'end', time: number, current: { start: number; length: number }): Result {
  const clip = clipAt(edit, ref)
  if (!clip) return { edit, selected: [] }
  const end = current.start + current.length
  let next: Obj
  if (edge === 'end') next = { ...clip, length: ms(Math.max(MIN_LENGTH, time - current.start)) }
  else {
    const media = TRIMMED.includes(assetType(clip)) && isObj(clip.asset)
    const trim = media ? Number(getIn(clip, ['asset', 'trim']) ?? 0) || 0 : 0
    const speed = media ? Number(getIn(clip, ['asset', 'speed']) ?? 1) || 1 : 1
    // Not past the end, not before 0, and for media not before the source's first frame.
    const start = Math.min(end - MIN_LENGTH, Math.max(0, time, media ? current.start - trim / speed : 0))
    next = { ...clip, start: ms(start), length: ms(end - start) }
    if (media) next.asset = { ...(clip.asset as Obj), trim: ms(trim + (start - current.start) * speed) }
  }
  return { edit: setIn(edit, ['timeline', 'tracks', ref.track, 'clips', ref.clip], next) as Obj, selected: [next] }
}

/** Removes clips (and any track left empty). */
export function deleteClips(edit: Obj, refs: ClipRef[]): Result {
  const tracks = tracksOf(edit).map((t, track) => ({ ...t, clips: clipsOf(t).filter((_, clip) => !refs.some((r) => sameRef(r, { track, clip }))) }))
  return { edit: withTracks(edit, tracks), selected: [] }
}

/** A copy of each clip right after it on its own track (from its end, for as long). */
export function duplicateClips(edit: Obj, refs: ClipRef[], times: (r: ClipRef) => { start: number; length: number }): Result {
  let next = edit
  const copies: Obj[] = []
  for (const r of [...refs].sort((a, b) => b.track - a.track || b.clip - a.clip)) {
    const clip = clipAt(edit, r)
    if (!clip) continue
    const { start, length } = times(r)
    const copy = { ...structuredClone(clip), start: ms(start + length), length: ms(length) }
    const clips = clipsOf(tracksOf(next)[r.track]!)
    next = setIn(next, ['timeline', 'tracks', r.track, 'clips'], [...clips.slice(0, r.clip + 1), copy, ...clips.slice(r.clip + 1)]) as Obj
    copies.push(copy)
  }
  return { edit: next, selected: copies }
}

/** Adds a clip on a new top track (tracks[0] is drawn over the others), so it covers nothing by surprise. */
export function addClip(edit: Obj, clip: Obj): Result {
  return { edit: setIn(edit, ['timeline', 'tracks'], [{ clips: [clip] }, ...tracksOf(edit)]) as Obj, selected: [clip] }
}

/** Sets one field of a clip (`path` under the clip; undefined removes it). */
export function setClipField(edit: Obj, ref: ClipRef, path: (string | number)[], value: unknown): Result {
  const next = setIn(edit, ['timeline', 'tracks', ref.track, 'clips', ref.clip, ...path], value) as Obj
  const clip = clipAt(next, ref)
  return { edit: next, selected: clip ? [clip] : [] }
}
