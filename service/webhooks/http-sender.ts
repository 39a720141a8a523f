import type { Dispatcher } from 'undici'
import { guardedAgent, type NetworkPolicy } from '../../plugins/lib/net/guard.js'
import { undici } from '../../plugins/lib/net/undici.js'

/** The outcome of one delivery attempt. */
export interface SendResult {
  /** HTTP status, or null when no answer came (network error, time-out). */
  status: number | null
  ok: boolean
  error?: string
  durationMs: number
}

export interface WebhookSender {
  /** One attempt. `signal` cuts it short (the outbox shutting down); the result then says so. */
  send(url: string, body: string, headers: Record<string, string>, opts?: { signal?: AbortSignal }): Promise<SendResult>
}

/**
 * POSTs webhook bodies with undici. Success is a 2xx within `timeoutMs` (10 s by default, the seed's rule);
 * redirects are not followed and count as failures (Standard Webhooks practice).
 */
export function httpSender(opts: { timeoutMs?: number; dispatcher?: Dispatcher; network?: NetworkPolicy } = {}): WebhookSender {
  const timeoutMs = opts.timeoutMs ?? 10_000
  // Made at the first send: a service that never sends a webhook never loads undici (`undici()`).
  let dispatcher = opts.dispatcher
  return {
    async send(url, body, headers, sendOpts) {
      dispatcher ??= guardedAgent(opts.network, { connectTimeout: timeoutMs })
      const started = performance.now()
      const timeout = AbortSignal.timeout(timeoutMs)
      const signal = sendOpts?.signal ? AbortSignal.any([timeout, sendOpts.signal]) : timeout
      try {
        const res = await undici().request(url, {
          method: 'POST',
          body,
          headers: { 'content-type': 'application/json', 'user-agent': 'reelforge-webhooks/1', ...headers },
          dispatcher,
          signal,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        })
        await res.body.dump({ limit: 64 * 1024 }).catch(() => undefined)
        const ok = res.statusCode >= 200 && res.statusCode < 300
        return {
          status: res.statusCode,
          ok,
          error: ok ? undefined : res.statusCode >= 300 && res.statusCode < 400 ? `redirect (${res.statusCode}) is not followed` : `HTTP ${res.statusCode}`,
          durationMs: Math.round(performance.now() - started),
        }
      } catch (e) {
        const error = timeout.aborted ? `no answer within ${timeoutMs} ms` : signal.aborted ? 'cancelled before an answer came' : (e as Error).message
        return { status: null, ok: false, error, durationMs: Math.round(performance.now() - started) }
      }
    },
  }
}
