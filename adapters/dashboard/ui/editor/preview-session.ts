import { ApiError, api, apiBlob, session } from '../api.js'

// The editor's preview session (`/v1/previews`): the edit kept ready in a render process of the server's, its
// sources prepared and decoders warm, so a frame is drawn without planning the edit again. One per page: opened
// on the first frame, given each changed edit (`PUT`), opened again when it has gone (idle, the server
// restarted), deleted when the page goes.

/** Thrown when the server holds no session for this page now: the caller draws frames the other way. */
export class NoSession extends Error {}

interface Held {
  id: string
  /** The edit it holds, as JSON: a frame of another edit changes it first. */
  edit: string
  /** The key that opened it: another key cannot use it. */
  key: string | null
}

let held: Held | undefined
/** An open or a change under way: the next exchange waits for it (one edit at a time on the session). */
let pending: Promise<Held> | undefined
/** Until then, frames go the other way: every session slot was taken (429), or the server has none. */
let refusedUntil = 0
/** How long a refusal stands: a full server frees a slot within its idle time; a server without sessions stays so. */
const RETRY_FULL_MS = 30_000
const RETRY_NONE_MS = 10 * 60_000

/**
 * The frame of `edit` (JSON of the edit as the preview asks for it) at `time`, drawn by the session. A session
 * that has gone is opened again once; one that cannot be had throws `NoSession`; the API's other errors (an
 * invalid edit, the frame rate limit) are thrown as they come.
 */
export async function sessionFrame(edit: string, time: number, signal?: AbortSignal): Promise<Blob> {
  if (Date.now() < refusedUntil) throw new NoSession('preview sessions are refused for now')
  for (let tries = 0; ; tries++) {
    const h = await holding(edit)
    try {
      return await apiBlob(`/v1/previews/${encodeURIComponent(h.id)}/frame?t=${time}`, undefined, h.key, signal)
    } catch (e) {
      if (!(e instanceof ApiError)) throw e
      // Gone (idle, deleted, the server restarted) or broken (its process died): the next ask opens another.
      if (e.status === 404 || e.status >= 500 || e.code === 'E_RENDERER_CRASHED') forget(h.id)
      if (e.status !== 404 || tries > 0) throw e
    }
  }
}

/** The session holding `edit`: the one held (changed to `edit` when it holds another), or a new one. */
async function holding(edit: string): Promise<Held> {
  while (pending) await pending.catch(() => undefined)
  const key = session.key()
  if (held && held.key === key && held.edit === edit) return held
  const work = held && held.key === key ? change(held, edit) : open(edit, key)
  pending = work.finally(() => (pending = undefined))
  return pending
}

async function open(edit: string, key: string | null): Promise<Held> {
  try {
    const { id } = await api<{ id: string }>('POST', '/v1/previews', edit, key)
    held = { id, edit, key }
    return held
  } catch (e) {
    if (!(e instanceof ApiError)) throw e
    // Full (every slot this key or the server may hold is taken), or no sessions here (an older server, a
    // renderer without them): not a fault of the edit, so its frames come the other way.
    if (e.status === 429) refusedUntil = Date.now() + RETRY_FULL_MS
    else if (e.status === 404 || e.status === 405 || e.status >= 500) refusedUntil = Date.now() + RETRY_NONE_MS
    else throw e
    throw new NoSession(e.message)
  }
}

async function change(h: Held, edit: string): Promise<Held> {
  try {
    await api('PUT', `/v1/previews/${encodeURIComponent(h.id)}`, edit, h.key)
    h.edit = edit
    return h
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 404) throw e
    forget(h.id)
    return open(edit, h.key)
  }
}

const forget = (id: string) => {
  if (held?.id === id) held = undefined
}

/** Ends the session now (the editor closed, the page goes); `keepalive` lets the request outlive the page. */
export function closeSession(): void {
  const h = held
  held = undefined
  if (!h) return
  const headers = { authorization: `Bearer ${h.key ?? ''}` }
  void fetch(`/v1/previews/${encodeURIComponent(h.id)}`, { method: 'DELETE', headers, keepalive: true }).catch(() => undefined)
}

if (typeof window !== 'undefined') window.addEventListener('pagehide', closeSession)
