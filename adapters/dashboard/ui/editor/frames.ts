import { apiBlob } from '../api.js'
import { isObj, type Obj } from './edit-doc.js'
import { closeSession, NoSession, sessionFrame } from './preview-session.js'

// The one way the editor gets pictures of its edit: from the page's preview session (`/v1/previews`, the edit
// kept ready on the server, so a frame needs no planning), or — when the server holds no session for it (all
// taken, or none there) — `POST /v1/render/frame`. Both are the real renderer's frame, pixel for pixel, and
// nothing is stored or charged.

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

/**
 * The frame at `time`: from the cache, or drawn by the server. Rejects with the API's error (429 when asked
 * too often). The edit changes on the session only when a frame of the changed edit is asked for, so the
 * caller's own pacing (it asks once the edit settles) paces the changes too.
 */
export async function frameAt(edit: Obj, time: number, _quality: FrameQuality, signal?: AbortSignal): Promise<Blob> {
  const asked = JSON.stringify(previewEdit(edit))
  const key = `${time} ${asked}`
  const hit = cache.get(key)
  if (hit) return hit
  const png = await sessionFrame(asked, time, signal).catch((e: unknown) => {
    if (!(e instanceof NoSession)) throw e
    return apiBlob('/v1/render/frame', { ...previewEdit(edit), time }, undefined, signal)
  })
  cache.set(key, png)
  if (cache.size > CACHED) cache.delete(cache.keys().next().value!)
  return png
}

/** The editor closed: its session ends now rather than when it would idle out. */
export const closeFrames = closeSession
