import type { Agent, Dispatcher, FormData } from 'undici'
import { RenderError } from '../../core/index.js'
import { undici } from '../lib/net/undici.js'

export interface HttpOptions {
  /** Per request (default 60 s). */
  timeoutMs?: number
  /** Retries after 429, 5xx or a network error (default 2). */
  retries?: number
  /** Longest wait honoured from `retry-after` (default 20 s); longer asks fail at once. */
  maxRetryDelayMs?: number
  /** Largest answer read (default 512 MB: a generated clip or a 4K image as base64 JSON fits); more is a failure. */
  maxBytes?: number
  dispatcher?: Dispatcher
}

export interface HttpResponse {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: Buffer
  // biome-ignore lint/suspicious/noExplicitAny: a vendor's JSON; each provider checks the fields it reads
  json(): any
}

let shared: Agent | undefined
/** One keep-alive pool for every vendor, made with the first request (undici loads then: `undici()`). */
const sharedAgent = () => (shared ??= new (undici().Agent)({ keepAliveTimeout: 10_000 }))

/**
 * A body read whole, stopped as soon as it passes `maxBytes`: a vendor's answer never fills memory unbounded.
 * Flowing ('data'), never paused: undici asserts when a close-delimited body ends while its reader is paused
 * (nodejs/undici#5360), which an async iterator's back-pressure would do.
 */
function readCapped(vendor: string, body: NodeJS.ReadableStream & { destroy(e?: Error): void }, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    body.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size <= maxBytes) return void chunks.push(chunk)
      const tooBig = new RenderError('E_PROVIDER_FAILED', `${vendor}: the answer is over ${Math.round(maxBytes / 1024 ** 2)} MB; refused`, { vendor })
      reject(tooBig)
      body.destroy(tooBig)
    })
    body.on('end', () => resolve(Buffer.concat(chunks)))
    body.on('error', reject)
  })
}

/**
 * One provider request with the behaviour every vendor client needs: a time-out, retries on 429/5xx and
 * network errors honouring `retry-after-ms` / `retry-after` (seconds or an HTTP date; openai-node's rules),
 * otherwise backoff 0.5·2ⁿ s. Non-retryable errors come back as responses for the caller to map.
 */
export async function providerRequest(
  vendor: string,
  url: string,
  init: { method: string; headers?: Record<string, string>; body?: string | Buffer | FormData; signal: AbortSignal },
  opts: HttpOptions = {},
): Promise<HttpResponse> {
  const timeoutMs = opts.timeoutMs ?? 60_000
  const retries = opts.retries ?? 2
  for (let attempt = 0; ; attempt++) {
    const signal = AbortSignal.any([init.signal, AbortSignal.timeout(timeoutMs)])
    let res: HttpResponse | undefined
    let failure: string | undefined
    try {
      const r = await undici().request(url, {
        method: init.method as Dispatcher.HttpMethod,
        headers: init.headers,
        body: init.body as never,
        signal,
        dispatcher: opts.dispatcher ?? sharedAgent(),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      })
      const body = await readCapped(vendor, r.body, opts.maxBytes ?? 512 * 1024 ** 2)
      res = { status: r.statusCode, headers: r.headers, body, json: () => JSON.parse(body.toString('utf8')) }
    } catch (e) {
      if (e instanceof RenderError) throw e // an answer too large: asking again would not shrink it
      if (init.signal.aborted) throw new RenderError('E_CANCELLED', 'cancelled')
      // Our deadline or undici's own header/body/connect time-out, whichever fired first.
      if (signal.aborted || /TIMEOUT/.test(String((e as { code?: string }).code))) {
        if (attempt >= retries) throw new RenderError('E_PROVIDER_TIMEOUT', `${vendor}: no answer within ${timeoutMs} ms`, { vendor, retryable: true })
        failure = 'timeout'
      } else failure = (e as Error).message
    }
    const retryable = !res || res.status === 429 || res.status >= 500
    if (!retryable) return res!
    if (attempt >= retries) {
      if (res) return res
      throw new RenderError('E_PROVIDER_FAILED', `${vendor}: cannot reach the API (${failure})`, { vendor, retryable: true })
    }
    const delay = retryDelay(res?.headers, attempt)
    if (delay > (opts.maxRetryDelayMs ?? 20_000)) {
      if (res) return res
      throw new RenderError('E_PROVIDER_FAILED', `${vendor}: cannot reach the API (${failure})`, { vendor, retryable: true })
    }
    await new Promise((r) => setTimeout(r, delay))
  }
}

/** `retry-after-ms`, else `retry-after` (seconds or date), else exponential backoff with jitter. */
export function retryDelay(headers: Record<string, string | string[] | undefined> | undefined, attempt: number): number {
  const one = (name: string) => {
    const v = headers?.[name]
    return Array.isArray(v) ? v[0] : v
  }
  const ms = Number(one('retry-after-ms'))
  if (Number.isFinite(ms) && ms >= 0) return ms
  const after = one('retry-after')
  if (after !== undefined) {
    const seconds = Number(after)
    if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000)
    const date = Date.parse(after)
    if (Number.isFinite(date)) return Math.max(0, date - Date.now())
  }
  return Math.min(8000, 500 * 2 ** attempt) * (1 - Math.random() * 0.25)
}

/** An upstream error as our error: the status and the vendor's message, never a credential. */
export function upstreamError(vendor: string, res: HttpResponse, message: string | undefined): RenderError {
  const status = res.status
  const reason =
    status === 401 || status === 403
      ? 'the API key was rejected'
      : status === 402
        ? 'the provider account has no credit'
        : status === 429
          ? 'rate limited by the provider'
          : (message ?? `HTTP ${status}`)
  return new RenderError('E_PROVIDER_FAILED', `${vendor}: ${reason} (HTTP ${status})`, { vendor, status, retryable: status === 429 || status >= 500 })
}

/** A moderation refusal (the prompt or the result broke the vendor's content policy). */
export function moderated(vendor: string, detail: string): RenderError {
  return new RenderError('E_PROVIDER_FAILED', `${vendor}: refused by the provider's content moderation (${detail})`, { vendor, moderated: true })
}

/** Masks the key wherever a vendor message quotes it (some echo part or all of a refused key). */
export const keyRedactor = (apiKey?: string) => (s: string) => (apiKey && apiKey.length >= 4 ? s.replaceAll(apiKey, '***') : s)
