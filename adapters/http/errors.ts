import type { HTTPError, H3Event } from 'h3'
import { RenderError, type RenderErrorCode } from '../../core/index.js'
import { ServiceError, type ServiceErrorCode } from '../../service/errors.js'
import { publicIssues, publicText } from '../../service/lib/public-text.js'
import { logger } from '../../service/log.js'

const log = logger('http')

/** Every error code and its HTTP status: one table (a Record over the union, so it is exhaustive). */
export const STATUS: Record<RenderErrorCode | ServiceErrorCode | 'E_METHOD_NOT_ALLOWED', number> = {
  E_BAD_REQUEST: 400,
  E_VALIDATION: 400,
  E_TIMELINE_INVALID: 400,
  E_UNAUTHORIZED: 401,
  E_INSUFFICIENT_CREDITS: 402,
  E_FORBIDDEN: 403,
  E_NOT_FOUND: 404,
  E_METHOD_NOT_ALLOWED: 405,
  E_CONFLICT: 409,
  E_PAYLOAD_TOO_LARGE: 413,
  E_UNSUPPORTED_MEDIA_TYPE: 415,
  E_LIMIT_EXCEEDED: 422,
  E_IDEMPOTENCY_MISMATCH: 422,
  E_CONTENT_MODERATED: 422,
  E_PLUGIN_NOT_FOUND: 422,
  E_ASSET_UNREADABLE: 422,
  E_ASSET_TOO_LARGE: 422,
  E_RATE_LIMITED: 429,
  E_INTERNAL: 500,
  E_UNAVAILABLE: 503,
  E_PLUGIN_DUPLICATE: 500,
  E_PLUGIN_FAILED: 500,
  E_OUTPUT_FAILED: 500,
  E_RENDERER_CRASHED: 500,
  E_FFMPEG_MISSING: 503,
  E_GL_UNAVAILABLE: 503,
  E_PROVIDER_FAILED: 502,
  E_PROVIDER_TIMEOUT: 504,
  E_CANCELLED: 409,
  E_TIME_LIMIT: 422,
  E_MEMORY_LIMIT: 422,
  E_INPUT_LIMIT: 400,
}

/** The one error body shape: `{ "error": { "code", "message", "issues"? } }`. */
export function errorResponse(
  status: number,
  code: string,
  message: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify({ error: { code, message, ...extra } }), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  })
}

/**
 * h3's `onError`: known errors keep their code and message; anything else is a 500 whose details stay in
 * the server log, never in the response.
 */
export function onError(error: HTTPError, event: H3Event): Response {
  const cause = error.cause
  if (cause instanceof ServiceError || cause instanceof RenderError) {
    const status = STATUS[cause.code] ?? 500
    // An error about one field (a source that cannot be read: `data.path`) lists it as an issue, as validation
    // does, so a client (the editor's inspector) marks the field without parsing the message.
    const path = typeof cause.data?.path === 'string' && cause.data.path ? cause.data.path : undefined
    const issues = cause.data?.issues ?? (path ? [{ path, message: cause.message.replace(`${path}: `, '') }] : undefined)
    const headers: Record<string, string> = cause instanceof ServiceError && cause.data?.retryAfter ? { 'retry-after': String(cause.data.retryAfter) } : {}
    // The rest of an oversized body is left unread: the connection cannot carry another request after it.
    if (cause.code === 'E_PAYLOAD_TOO_LARGE') headers.connection = 'close'
    if (cause.data?.clientGone) log.warn(`${event.req.method} ${new URL(event.req.url).pathname}: ${cause.message}`)
    // Messages may quote a file the server opened: clients see its name, the log the full path.
    const message = publicText(cause.message, (full) => log.warn(`${event.req.method} ${new URL(event.req.url).pathname}: ${full}`))
    return errorResponse(status, cause.code, message, issues ? { issues: publicIssues(issues) } : {}, headers)
  }
  if (error.status === 404 && !error.unhandled) return errorResponse(404, 'E_NOT_FOUND', `no route ${event.req.method} ${new URL(event.req.url).pathname}`)
  if (error.status === 405) return errorResponse(405, 'E_METHOD_NOT_ALLOWED', error.message)
  if (error.status === 413) return errorResponse(413, 'E_PAYLOAD_TOO_LARGE', error.message)
  if (!error.unhandled && error.status < 500) return errorResponse(error.status, 'E_BAD_REQUEST', error.message)
  log.error(`${event.req.method} ${event.req.url} failed:`, cause ?? error)
  return errorResponse(500, 'E_INTERNAL', 'internal error')
}
