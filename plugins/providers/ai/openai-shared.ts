import type { FormData } from 'undici'
import { RenderError } from '../../../core/index.js'
import { type HttpOptions, type HttpResponse, keyRedactor, moderated, providerRequest, upstreamError } from '../http.js'
import { safeJson } from '../openai.js'
import { undici } from '../../lib/net/undici.js'

// What the OpenAI clients of every task share: where to send, and how a non-200 answer becomes our error. Image generation (../openai.ts) predates them and keeps its own.

/** The API root without a trailing `/v1`: both `http://localhost:11434` and the SDK's `…/v1` style work. */
export const openaiBase = (baseUrl?: string) => (baseUrl ?? 'https://api.openai.com').replace(/\/+$/, '').replace(/\/v1$/, '')

/**
 * A client for one OpenAI-compatible server: `post` sends a JSON object (or a multipart form) to `path` with the
 * key as `Authorization: Bearer` when there is one (local servers need none) and turns a non-200 answer into our
 * error; `redact` keeps the key out of anything the vendor says.
 */
export function openaiClient(opts: HttpOptions & { apiKey?: string; baseUrl?: string }) {
  const base = openaiBase(opts.baseUrl)
  const redact = keyRedactor(opts.apiKey)
  const post = async (path: string, body: object | FormData, signal: AbortSignal, http: HttpOptions = opts): Promise<HttpResponse> => {
    const form = body instanceof undici().FormData
    const headers: Record<string, string> = form ? {} : { 'content-type': 'application/json' }
    if (opts.apiKey) headers.authorization = `Bearer ${opts.apiKey}`
    const init = { method: 'POST', headers, body: form ? body : JSON.stringify(body), signal }
    const res = await providerRequest('openai', `${base}${path}`, init, http)
    if (res.status !== 200) throw openaiFailure(res, redact)
    return res
  }
  return { post, redact }
}

const POLICY_CODES = new Set(['content_policy_violation', 'content_filter', 'invalid_prompt', 'moderation_blocked'])
const POLICY_WORDS = /safety system|content (policy|management|filter)|usage policy/i

/**
 * A non-200 answer as our error: a content refusal (moderated), a refused key (OpenAI's own 401 message quotes
 * part of it, so it is never passed on), a file too large for the endpoint, or the vendor's reason.
 */
export function openaiFailure(res: HttpResponse, redact: (s: string) => string): RenderError {
  const error = safeJson(res.body)?.error as { message?: string; code?: string | null } | undefined
  const message = error?.message === undefined ? undefined : redact(error.message)
  if ((res.status === 400 || res.status === 422) && (POLICY_CODES.has(error?.code ?? '') || POLICY_WORDS.test(message ?? '')))
    return moderated('openai', message ?? 'content policy')
  if (res.status === 401 || res.status === 403)
    return new RenderError('E_PROVIDER_FAILED', `openai: the OpenAI key was refused (HTTP ${res.status})`, {
      vendor: 'openai',
      status: res.status,
      retryable: false,
    })
  if (res.status === 413)
    return new RenderError('E_PROVIDER_FAILED', `openai: the file is too large for the provider (HTTP 413${message ? `: ${message}` : ''})`, {
      vendor: 'openai',
      status: 413,
      tooLarge: true,
      retryable: false,
    })
  return upstreamError('openai', res, message)
}
