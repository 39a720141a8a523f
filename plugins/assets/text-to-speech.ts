import { defineAssetPlugin, TextToSpeechAssetSchema, type Animatable, type PrepareContext, type PreparedAsset } from '../../core/index.js'
import { speechAsk } from '../lib/audio/speech-ask.js'

export interface SpeechParams {
  text: string
  voice?: string
  language?: string
  newscaster?: boolean
  trim?: number
  speed?: number
  volume?: Animatable
  effect?: 'none' | 'fadeIn' | 'fadeOut' | 'fadeInFadeOut'
}

/** Sound-only asset of `text` spoken by the render's speech engine, mixed like an audio clip (trim, speed, volume, effect). */
export async function prepareSpeech(params: SpeechParams, ctx: PrepareContext): Promise<PreparedAsset> {
  if (!params.text.trim()) {
    ctx.warn('there is no text to speak; the clip is silent')
    return { size: null, duration: 0 }
  }
  const speech = await ctx.runAi('speech', speechAsk(params))
  const trim = params.trim ?? 0
  const speed = params.speed && params.speed > 0 ? params.speed : 1
  return {
    size: null,
    duration: Math.max(0, speech.duration - trim) / speed,
    audio: { path: speech.path, trim, speed, volume: params.volume ?? 1, effect: params.effect, duration: Math.max(0, speech.duration - trim) },
  }
}

/**
 * `text-to-speech` (Shotstack's deprecated AI form): `text` spoken by the speech engine — espeak-ng locally,
 * the Polly `voice` name mapped to an espeak voice of the same gender and accent; a registered vendor (or the
 * service's configured one) otherwise. `length: "auto"` is the length of the speech; a caption with
 * `src: "alias://…"` shows the same words at the engine's own word times.
 */
export const textToSpeech = defineAssetPlugin({
  kind: 'asset',
  name: 'text-to-speech',
  schema: TextToSpeechAssetSchema,
  prepare: (params, ctx) => prepareSpeech(params, ctx),
})
