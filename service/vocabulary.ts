// The service's fixed names, with no imports: shared by the server and the dashboard's browser bundle.

/** Webhook events. */
export const EVENT_NAMES = [
  'render.queued',
  'render.processing',
  'render.complete',
  'render.failed',
  'ai.complete',
  'ai.failed',
  'wallet.low_balance',
  'wallet.deposit',
  'source.ready',
  'source.failed',
] as const
export type EventName = (typeof EVENT_NAMES)[number]

export const IMAGE_MODELS = ['dall-e-3', 'flux', 'stable-diffusion'] as const
export type ImageModel = (typeof IMAGE_MODELS)[number]

/** The seed's size table (width × height). */
export const IMAGE_SIZES = ['512x512', '1024x1024', '1024x576', '1920x1080', '576x1024', '1080x1920', '1024x768', '768x1024']
/** Styles each model offers. */
export const IMAGE_STYLES: Record<ImageModel, string[]> = { 'dall-e-3': ['natural', 'vivid'], flux: ['natural'], 'stable-diffusion': ['natural', 'artistic'] }
export const PROMPT_LIMIT = 4000
