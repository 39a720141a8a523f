import type { Clock } from '../clock.js'

/** Requests per minute, per API key and model. */
export type RateLimits = Record<string, number>

/** The rate-limit name of `POST /v1/render/frame` (a playground scrubbing asks often, but not without end). */
export const FRAME_LIMIT = 'frame-preview'

/** The seed's limits, and the frame preview's. */
export const DEFAULT_RATE_LIMITS: RateLimits = { flux: 30, 'stable-diffusion': 30, 'dall-e-3': 15, [FRAME_LIMIT]: 120 }

const WINDOW = 60_000

/**
 * A sliding one-minute window per (key, model). `take` answers at once (the endpoint turns a refusal into
 * 429 with Retry-After); `wait` queues until a slot frees (batch items and timeline assets run within the
 * limit instead of failing).
 */
export class RateLimiter {
  private readonly calls = new Map<string, number[]>()

  constructor(
    private readonly limits: RateLimits,
    private readonly clock: Clock,
  ) {}

  /** Takes a slot, or returns the milliseconds until one frees. */
  take(key: string, model: string): { ok: true } | { ok: false; retryAfterMs: number } {
    const limit = this.limits[model]
    if (!limit) return { ok: true }
    const now = this.clock.now()
    const id = `${key}\u0000${model}`
    const recent = (this.calls.get(id) ?? []).filter((t) => t > now - WINDOW)
    if (recent.length >= limit) {
      this.calls.set(id, recent)
      return { ok: false, retryAfterMs: recent[0]! + WINDOW - now }
    }
    recent.push(now)
    this.calls.set(id, recent)
    return { ok: true }
  }

  async wait(key: string, model: string, signal?: AbortSignal): Promise<void> {
    for (;;) {
      const r = this.take(key, model)
      if (r.ok) return
      signal?.throwIfAborted()
      await new Promise((resolve) => setTimeout(resolve, Math.min(r.retryAfterMs, 1000)))
    }
  }
}
