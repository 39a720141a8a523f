// The dashboard's only way to the server: the /v1 API with the signed-in key as a Bearer token.
import type { IssueRecord, RenderStatusRecord } from '../../../service/api-types.js'

/** The key lives in sessionStorage: gone when the tab closes, never in a URL. */
const KEY = 'reelforge.key'
export const session = {
  key: () => sessionStorage.getItem(KEY),
  set: (key: string) => sessionStorage.setItem(KEY, key),
  clear: () => sessionStorage.removeItem(KEY),
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
  /** Every `{{ KEY }}` its strings use. */
  merge_fields: string[]
}

/** A render's status; `data` (the submitted edit) with `?data=true`. */
export type Render = RenderStatusRecord & { data?: unknown }

export const isActive = (r: Pick<Render, 'status'>) => r.status === 'QUEUED' || r.status === 'PROCESSING'
