import type { AiTask, Resolution, Size } from '../../core/index.js'
import { sizeFor } from '../../core/plan/output-size.js'
import { RESOLUTIONS } from '../../core/schema/output.js'

/** Credits per unit of work: one table, configurable (`createService(config, { pricing })`, or REELFORGE_CONFIG: pricing-config.ts). */
export interface Pricing {
  /** Credits per generated image, by model. */
  images: Record<string, number>
  /** Credits per started minute of rendered output, by resolution tier (the edit schema's `output.resolution` names). */
  renderPerMinute: Record<Resolution, number>
  /** Credits per AI job by kind (`POST /v1/ai/{kind}`, and `avatar` for Shotstack's Create API), charged when it completes; sandbox keys pay nothing. */
  ai: Record<AiTask, number>
  /** Balance under which `wallet.low_balance` fires (once per crossing). */
  lowBalanceThreshold: number
}

/**
 * Defaults from the seed: flux 5, stable-diffusion 4, dall-e-3 6 credits per image; a 4K render 20 credits
 * (per started minute of output); lower tiers cost less, roughly by pixels.
 */
export const DEFAULT_PRICING: Pricing = {
  images: { flux: 5, 'stable-diffusion': 4, 'dall-e-3': 6 },
  renderPerMinute: { preview: 1, mobile: 1, sd: 2, hd: 3, '1080': 5, '4k': 20 },
  ai: { text: 1, speech: 2, transcription: 2, video: 10, upscale: 5, avatar: 20 },
  lowBalanceThreshold: 100,
}

/**
 * The resolution tier of a frame size: the smallest resolution whose 16:9 frame has at least as many pixels — priced
 * by pixel count, so a square hd frame (720×720) is sd's price and anything past 1080 is 4k's.
 */
export function tierOf(size: Size): Resolution {
  const px = size.width * size.height
  return RESOLUTIONS.find((r) => px <= TIER_PIXELS[r]) ?? '4k'
}

/** Each resolution's 16:9 pixel count, worked out once rather than on every price. */
const TIER_PIXELS = Object.fromEntries(RESOLUTIONS.map((r) => [r, sizeFor(r).width * sizeFor(r).height])) as Record<Resolution, number>

/** Credits for a render: per started minute (at least one) at the frame's tier. */
export function renderPrice(pricing: Pricing, seconds: number, size: Size): number {
  return Math.max(1, Math.ceil(seconds / 60)) * pricing.renderPerMinute[tierOf(size)]
}
