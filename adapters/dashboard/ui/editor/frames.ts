import { apiBlob } from '../api.js'
import { isObj, type Obj } from './edit-doc.js'

// The one way the editor gets pictures of its edit. Today each is `POST /v1/render/frame` (the real renderer,
// nothing stored or charged); preview sessions on the server can replace this module's insides later without
// the editor changing.

/** `still`: the frame under the playhead; `play`: a frame while playing (may be smaller or coarser). */
export type FrameQuality = 'still' | 'play'

/**
 * The edit as the preview asks for it: laid out at its own output size — so every pixel-sized asset sits where
 * the render puts it — and scaled down to `preview` resolution (`output.scaleTo`) when the size comes from a
 * resolution; an explicit `output.size` is drawn at that size.
 */
export function previewEdit(edit: Obj): Obj {
  const output = isObj(edit.output) ? edit.output : {}
  const scaled = output.size === undefined ? { scaleTo: 'preview' } : {}
  return { ...edit, output: { ...output, ...scaled } }
}

/** Recently drawn frames by edit and time: scrubbing back, or playing again, asks the server nothing. */
const cache = new Map<string, Blob>()
const CACHED = 60

/** The frame at `time`: from the cache, or drawn by the server. Rejects with the API's error (429 when asked too often). */
export async function frameAt(edit: Obj, time: number, _quality: FrameQuality, signal?: AbortSignal): Promise<Blob> {
  const body = { ...previewEdit(edit), time }
  const key = JSON.stringify(body)
  const hit = cache.get(key)
  if (hit) return hit
  const png = await apiBlob('/v1/render/frame', body, undefined, signal)
  cache.set(key, png)
  if (cache.size > CACHED) cache.delete(cache.keys().next().value!)
  return png
}
