import { request, type Dispatcher } from 'undici'
import { guardedAgent, type NetworkPolicy } from '../net/guard.js'

/** The outcome of one delivery attempt. */
export interface SendResult {
  /** HTTP status, or null when no answer came (network error, time-out). */
  status: number | null
  ok: boolean
  error?: string
  durationMs: number
}

export interface WebhookSender {
  send(url: string, body: string, headers: Record<string, string>): Promise<SendResult>
}

/**
 * POSTs webhook bodies with undici. Success is a 2xx within `timeoutMs` (10 s by default, the seed's rule);
 * redirects are not followed and count as failures (Standard Webhooks practice).
 */
export function httpSender(opts: { timeoutMs?: number; dispatcher?: Dispatcher; network?: NetworkPolicy } = {}): WebhookSender {
  const timeoutMs = opts.timeoutMs ?? 10_000
  const dispatcher = opts.dispatcher ?? guardedAgent(opts.network, { connectTimeout: timeoutMs })
  return {
    async send(url, body, headers) {
      const started = performance.now()
      const signal = AbortSignal.timeout(timeoutMs)
      try {
        const res = await request(url, { method: 'POST', body, headers: { 'content-type': 'application/json', 'user-agent': 'reelforge-webhooks/1', ...headers }, dispatcher, signal, headersTimeout: timeoutMs, bodyTimeout: timeoutMs })
        await res.body.dump({ limit: 64 * 1024 }).catch(() => undefined)
        const ok = res.statusCode >= 200 && res.statusCode < 300
        return { status: res.statusCode, ok, error: ok ? undefined : res.statusCode >= 300 && res.statusCode < 400 ? `redirect (${res.statusCode}) is not followed` : `HTTP ${res.statusCode}`, durationMs: Math.round(performance.now() - started) }
      } catch (e) {
        const timedOut = signal.aborted
        return { status: null, ok: false, error: timedOut ? `no answer within ${timeoutMs} ms` : (e as Error).message, durationMs: Math.round(performance.now() - started) }
      }
    },
  }
}
