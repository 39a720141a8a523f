// The edit as the editor holds it: plain JSON, never mutated — every change makes new objects along the path it
// touches and shares the rest, so an undo step is just the previous object and an unchanged part stays `===`.

export type Obj = Record<string, unknown>
export type Path = readonly (string | number)[]

/** A number, or a string that is one (the API takes `"1.5"` for 1.5); undefined for anything else. */
export const num = (x: unknown): number | undefined =>
  typeof x === 'number' ? x : typeof x === 'string' && x.trim() !== '' && Number.isFinite(Number(x)) ? Number(x) : undefined

export const isObj = (x: unknown): x is Obj => !!x && typeof x === 'object' && !Array.isArray(x)

/** A clip by place: its track's index in `timeline.tracks` and its own in that track's `clips`. */
export interface ClipRef {
  track: number
  clip: number
}
export const sameRef = (a: ClipRef, b: ClipRef) => a.track === b.track && a.clip === b.clip
/** `timeline.tracks[1].clips[2]`: the API's path of a clip (issues name fields under it). */
export const clipPath = (r: ClipRef) => `timeline.tracks[${r.track}].clips[${r.clip}]`

/** The value at `path`, or undefined where any step is missing. */
export function getIn(value: unknown, path: Path): unknown {
  let at = value
  for (const key of path) {
    if (typeof key === 'number' ? !Array.isArray(at) : !isObj(at)) return undefined
    at = (at as Record<string | number, unknown>)[key]
  }
  return at
}

/**
 * A copy of `value` with `path` set to `next` (undefined removes an object's key), creating objects or arrays
 * on the way as the next key asks. Returns `value` itself when nothing changes.
 */
export function setIn(value: unknown, path: Path, next: unknown): unknown {
  if (!path.length) return next
  const [key, ...rest] = path as [string | number, ...(string | number)[]]
  const current = getIn(value, [key])
  // Removing what is not there changes nothing (and must not create the objects on the way).
  if (current === undefined && next === undefined) return value
  const child = setIn(current ?? (typeof rest[0] === 'number' ? [] : {}), rest, next)
  if (child === current && (child !== undefined || !(isObj(value) && key in value))) return value
  if (typeof key === 'number') {
    const list = Array.isArray(value) ? [...value] : []
    list[key] = child
    return list
  }
  const obj: Obj = isObj(value) ? { ...value } : {}
  if (child === undefined) delete obj[key]
  else obj[key] = child
  return obj
}

/** The tracks of an edit (an empty list when it has none that are well formed). */
export function tracksOf(edit: Obj): Obj[] {
  const tracks = getIn(edit, ['timeline', 'tracks'])
  return Array.isArray(tracks) ? tracks.map((t) => (isObj(t) ? t : {})) : []
}

/** The clips of one track (objects only; anything else in the list is skipped by the timeline). */
export function clipsOf(track: Obj): unknown[] {
  return Array.isArray(track.clips) ? track.clips : []
}

export const clipAt = (edit: Obj, r: ClipRef): Obj | undefined => {
  const c = getIn(edit, ['timeline', 'tracks', r.track, 'clips', r.clip])
  return isObj(c) ? c : undefined
}

/** Every clip object with its place, in track order. */
export function allClips(edit: Obj): { ref: ClipRef; clip: Obj }[] {
  return tracksOf(edit).flatMap((t, track) => clipsOf(t).flatMap((clip, i) => (isObj(clip) ? [{ ref: { track, clip: i }, clip }] : [])))
}

/** Where a clip object is now (after an edit moved it between tracks), by identity. */
export function refOf(edit: Obj, clip: unknown): ClipRef | undefined {
  return allClips(edit).find((c) => c.clip === clip)?.ref
}

/** The asset's type, for names and rules ("title", "video"…); "clip" when it has none. */
export const assetType = (clip: Obj) => (isObj(clip.asset) && typeof clip.asset.type === 'string' ? clip.asset.type : 'clip')
