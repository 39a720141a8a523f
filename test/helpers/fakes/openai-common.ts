import type { Recorded, Scripted } from '../fake-vendors.js'

// What every OpenAI endpoint answers alike: its error body, its 404 for an unknown route, its 401 with the key
// masked as OpenAI masks it, and the failures a client must handle (rate limit with Retry-After, 500, refusal).

/** `{error: {message, type, param, code}}`, OpenAI's error body. */
export const openaiError = (
  status: number,
  message: string,
  type: string,
  code: string | null,
  param: string | null = null,
  headers?: Record<string, string>,
): Scripted => ({ status, json: { error: { message, type, param, code } }, headers })

/** Scripted failures for `fake.push(...)`, worded for `model`. */
export const openaiAnswers = (model: string) => ({
  rateLimited: (retryAfterSeconds: string) =>
    openaiError(
      429,
      `Rate limit reached for ${model} in organization org-fake on requests per min (RPM): Limit 3, Used 3, Requested 1.`,
      'requests',
      'rate_limit_exceeded',
      null,
      { 'retry-after': retryAfterSeconds, 'x-ratelimit-remaining-requests': '0' },
    ),
  serverError: () => openaiError(500, 'The server had an error while processing your request. Sorry about that!', 'server_error', null),
  /** A request refused before any answer (HTTP 400). */
  policyViolation: () => openaiError(400, 'Your request was rejected as a result of our safety system.', 'invalid_request_error', 'content_policy_violation'),
})

/** OpenAI's answer before the body is looked at: 404 off `path`, 401 without `Bearer <key>` (`null`: any key). */
export function openaiGate(req: Recorded, path: string, key: string | null): Scripted | undefined {
  if (req.method !== 'POST' || req.path !== path) return openaiError(404, `Invalid URL (${req.method} ${req.path})`, 'invalid_request_error', null)
  const auth = String(req.headers.authorization ?? '')
  if (key === null || auth === `Bearer ${key}`) return undefined
  const given = auth.replace(/^Bearer /, '')
  return openaiError(401, `Incorrect API key provided: ${given.slice(0, 3)}*****${given.slice(-4)}.`, 'invalid_request_error', 'invalid_api_key')
}
