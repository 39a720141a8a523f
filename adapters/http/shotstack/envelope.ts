import { RenderError } from '../../../core/index.js'
import { ServiceError } from '../../../service/errors.js'
import { publicText } from '../../../service/lib/public-text.js'
import { STATUS } from '../errors.js'
import { logger } from '../../../service/log.js'

const log = logger('shotstack')

// Shotstack's answers: `{ success, message, response }` on the Edit API (message is the HTTP reason, response
// the data or an error message) and `{ data }` on the Serve API. Errors keep the envelope, so the official
// SDKs read them where they look; the HTTP status is the one /v1 gives the same error.

/** Jobs from this surface: offsets count up as Shotstack draws them, callbacks take Shotstack's shape. */
export const SHOTSTACK_JOB = { yAxis: 'up', api: 'shotstack' } as const

const REASON: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
}

export const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(status === 204 ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers } })

/** A successful Edit API answer. */
export const ok = (response: unknown, status = 200) => json(status, { success: true, message: REASON[status] ?? 'OK', response })

/** A refusal in Shotstack's envelope: `response` is the error message, with every field path in it. */
export const failure = (status: number, message: string, headers: Record<string, string> = {}) =>
  json(status, { success: false, message: REASON[status] ?? 'Error', response: message }, headers)

/** A refusal in the Ingest API's shape: `{ errors: [{ status, title, detail }] }`. */
export const ingestFailure = (status: number, message: string, headers: Record<string, string> = {}) =>
  json(status, { errors: [{ status: String(status), title: REASON[status] ?? 'Error', detail: message }] }, headers)

/**
 * Any error thrown by a handler, in the API's error shape (`shape`: the Edit/Serve envelope by default);
 * unknown ones are a 500 whose details stay in the log.
 */
export function toFailure(e: unknown, where: string, shape: typeof failure = failure): Response {
  if (e instanceof ServiceError || e instanceof RenderError) {
    const status = STATUS[e.code] ?? 500
    const message = publicText(e.message, (full) => log.warn(`${where}: ${full}`))
    const retry: Record<string, string> = e instanceof ServiceError && e.data?.retryAfter ? { 'retry-after': String(e.data.retryAfter) } : {}
    return shape(status, message, retry)
  }
  log.error(`${where}:`, e)
  return shape(500, 'internal error')
}

/** reelforge's job status and stage as Shotstack's one status word. */
export function shotstackStatus(status: string, stage: string | null): string {
  if (status === 'QUEUED') return 'queued'
  if (status === 'COMPLETE') return 'done'
  if (status === 'FAILED') return 'failed'
  if (stage === 'fetching') return 'fetching'
  if (stage === 'saving') return 'saving'
  return 'rendering' // rendering and encoding: Shotstack has one word for both
}
