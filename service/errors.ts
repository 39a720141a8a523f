import type { Issue } from '../core/index.js'

/** Error codes of the service layer (the core's RenderError codes are the rest of the table). */
export type ServiceErrorCode =
  | 'E_UNAUTHORIZED'
  | 'E_FORBIDDEN'
  | 'E_NOT_FOUND'
  | 'E_BAD_REQUEST'
  | 'E_VALIDATION'
  | 'E_PAYLOAD_TOO_LARGE'
  | 'E_UNSUPPORTED_MEDIA_TYPE'
  | 'E_LIMIT_EXCEEDED'
  /** The request is larger than the service accepts (texts, clips, tracks, merge fields, the merged edit): 400. */
  | 'E_INPUT_LIMIT'
  | 'E_CONFLICT'
  | 'E_INSUFFICIENT_CREDITS'
  | 'E_RATE_LIMITED'
  | 'E_IDEMPOTENCY_MISMATCH'
  | 'E_CONTENT_MODERATED'
  /** A dependency (the database, storage) is down for now: 503 with `Retry-After`. */
  | 'E_UNAVAILABLE'
  | 'E_INTERNAL'

/** A failure the service reports to its caller; the HTTP adapter maps `code` to a status. */
export class ServiceError extends Error {
  override name = 'ServiceError'
  constructor(
    readonly code: ServiceErrorCode,
    message: string,
    readonly data?: { issues?: Issue[]; path?: string; retryAfter?: number; [key: string]: unknown },
  ) {
    super(message)
  }
}
