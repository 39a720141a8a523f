// The dashboard's only way to the server: the /v1 API with the signed-in key as a Bearer token.
import type { IssueRecord, RenderStatusRecord } from '../../../service/api-types.js'

/**
 * The key lives in localStorage, never in a URL: every tab of this browser is signed in with it, a reload too,
 * until Sign out (in any tab) removes it. `onChange` hears another tab sign in or out (the `storage` event,
 * which the tab that made the change does not get).
 */
const KEY = 'reelforge.key'
export const session = {
  key: () => localStorage.getItem(KEY),
  set: (key: string) => localStorage.setItem(KEY, key),
  clear: () => localStorage.removeItem(KEY),
  onChange(listener: (key: string | null) => void): () => void {
    const on = (e: StorageEvent) => {
      // `key === null`: another tab cleared the whole storage.
      if (e.storageArea === localStorage && (e.key === KEY || e.key === null)) listener(localStorage.getItem(KEY))
    }
    window.addEventListener('storage', on)
    return () => window.removeEventListener('storage', on)
  },
}

export type Issue = IssueRecord

/** The API's one error shape, kept whole so forms can put each issue beside its field. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues: Issue[] = [],
  ) {
    super(message)
  }
}

/** Fired when the key stops working (revoked while signed in): the app returns to the sign-in form. */
export const SIGNED_OUT = 'reelforge:signed-out'

export async function api<T>(method: string, path: string, body?: unknown, key = session.key()): Promise<T> {
  const headers: Record<string, string> = { authorization: `Bearer ${key ?? ''}` }
  if (body !== undefined) headers['content-type'] = 'application/json'
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) })
  return answer<T>(res, key)
}

/**
 * A request whose answer is a file (a PNG frame): a POST of `body`, or a GET when there is none; its bytes, or
 * the API's error as for `api`. `signal` cancels it (the server stops too).
 */
export async function apiBlob(path: string, body: unknown, key = session.key(), signal?: AbortSignal): Promise<Blob> {
  const json: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' }
  const res = await fetch(path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${key ?? ''}`, ...json },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
  })
  return res.ok ? res.blob() : answer<never>(res, key)
}

/** The parsed JSON of a successful answer, else its error as an ApiError (a 401 of the signed-in key signs out). */
async function answer<T>(res: Response, key: string | null): Promise<T> {
  const text = await res.text()
  // biome-ignore lint/suspicious/noExplicitAny: the server's JSON, typed by each caller's generic
  let parsed: any
  try {
    parsed = text ? JSON.parse(text) : undefined
  } catch {
    throw new ApiError(res.status, 'E_BAD_RESPONSE', `the server answered ${res.status} with something that is not JSON`)
  }
  if (!res.ok) {
    const e = parsed?.error ?? {}
    if (res.status === 401 && key === session.key()) window.dispatchEvent(new Event(SIGNED_OUT))
    throw new ApiError(res.status, e.code ?? 'E_UNKNOWN', e.message ?? `HTTP ${res.status}`, e.issues ?? [])
  }
  return parsed as T
}

/**
 * Follows a render as it goes: `GET /v1/render/{id}/events` (Server-Sent Events), read with fetch because
 * EventSource cannot send the Bearer header. `onRecord` gets each `update` and the final `done` record, which
 * the promise also resolves with; it rejects when the stream fails or ends early (the caller may poll instead).
 */
export async function renderEvents(id: string, onRecord: (r: Render) => void, signal?: AbortSignal): Promise<Render> {
  const key = session.key()
  const res = await fetch(`/v1/render/${encodeURIComponent(id)}/events`, { headers: { authorization: `Bearer ${key ?? ''}` }, signal })
  if (!res.ok) return answer<never>(res, key)
  if (!res.body) throw new Error('the render events came without a body')
  const reader = res.body.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      buffer = (buffer + decoder.decode(chunk.value, { stream: true })).replace(/\r\n?/g, '\n')
      // One event per block, blocks end with a blank line; comments (": keep-alive") carry no data.
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const lines = buffer.slice(0, end).split('\n')
        buffer = buffer.slice(end + 2)
        const event =
          lines
            .find((l) => l.startsWith('event:'))
            ?.slice(6)
            .trim() ?? 'message'
        const data = lines.filter((l) => l.startsWith('data:')).map((l) => l.slice(5).replace(/^ /, ''))
        if (!data.length) continue
        const parsed = JSON.parse(data.join('\n'))
        if (event === 'error') throw new Error(parsed.message ?? 'the render events stream failed')
        onRecord(parsed as Render)
        if (event === 'done') return parsed as Render
      }
    }
  } finally {
    void reader.cancel().catch(() => {})
  }
  throw new Error('the render events stream ended before the render did')
}

export interface Me {
  account_id: string
  key_id: string
  sandbox: boolean
  admin: boolean
  /** Which way offset.y counts in edits sent to this server's /v1 (Shotstack's own API counts up). */
  y_axis: 'down' | 'up'
}

/** A saved template as listed; `GET /v1/templates/:id` adds its edit and merge fields. */
export interface TemplateSummary {
  id: string
  name: string
  created_at: string
  updated_at: string
}
export interface Template extends TemplateSummary {
  template: Record<string, unknown>
  /** Every `{{ KEY }}` its strings use, with the path of each field it feeds. */
  merge_fields: { find: string; fields: string[] }[]
}

/** A render's status; `data` (the submitted edit) with `?data=true`. */
export type Render = RenderStatusRecord & { data?: unknown }

export const isActive = (r: Pick<Render, 'status'>) => r.status === 'QUEUED' || r.status === 'PROCESSING'
