import type { Clock } from '../lib/clock.js'
import { ServiceError } from '../errors.js'

/** Requests per minute, per API key and model. */
export type RateLimits = Record<string, number>

/** The rate-limit name of `POST /v1/render/frame` (a playground scrubbing asks often, but not without end). */
export const FRAME_LIMIT = 'frame-preview'

/** The limit of any model without its own entry (e.g. an Ollama model named in `REELFORGE_TEXT_MODELS`); 0 = none. */
export const OTHER_MODELS = '*'

/**
 * The seed's image limits, the frame preview's, and the AI jobs' (per key and model; a render's AI assets wait for
 * a slot instead of failing). Vendors are limited by what they cost and what their own tiers allow (video is
 * minutes of GPU; speech and text are cheap); local engines generously, since they spend this server's CPU
 * (`sandbox` is the text and video stand-ins of sandbox keys, one window for both).
 */
export const DEFAULT_RATE_LIMITS: RateLimits = {
  flux: 30,
  'stable-diffusion': 30,
  'dall-e-3': 15,
  [FRAME_LIMIT]: 120,
  // text
  'gpt-4o-mini': 60,
  'gpt-4o': 30,
  // speech
  'tts-1': 30,
  'tts-1-hd': 30,
  'gpt-4o-mini-tts': 30,
  eleven_multilingual_v2: 20,
  eleven_flash_v2_5: 20,
  eleven_turbo_v2_5: 20,
  eleven_v3: 20,
  // transcription
  'whisper-1': 20,
  'gpt-4o-transcribe': 20,
  'gpt-4o-mini-transcribe': 20,
  // video
  gen4_turbo: 10,
  'gen4.5': 10,
  'ray-2': 10,
  'ray-flash-2': 10,
  // local engines
  'espeak-ng': 120,
  pocketsphinx: 30,
  lanczos: 30,
  sandbox: 120,
  [OTHER_MODELS]: 30,
}

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

  /** The per-minute limit of a model: its own, else the one for other models (0: none). */
  limitOf(model: string): number {
    return this.limits[model] ?? this.limits[OTHER_MODELS] ?? 0
  }

  /** Takes a slot, or returns the milliseconds until one frees. */
  take(key: string, model: string): { ok: true } | { ok: false; retryAfterMs: number } {
    const limit = this.limitOf(model)
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

  /** Takes a slot, or refuses with the 429 every API call answers: the limit, and when to retry (`Retry-After`). */
  claim(key: string, model: string, what = model): void {
    const r = this.take(key, model)
    if (r.ok) return
    const seconds = Math.max(1, Math.ceil(r.retryAfterMs / 1000))
    throw new ServiceError('E_RATE_LIMITED', `rate limit for ${what} reached (${this.limitOf(model)} per minute per key); retry in ${seconds} s`, {
      retryAfter: seconds,
    })
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
