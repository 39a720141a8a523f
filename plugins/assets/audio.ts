import { AudioAssetSchema, defineAssetPlugin, RenderError } from '../../core/index.js'
import { probeMedia } from '../lib/video/prepare-video.js'
import { prepareSpeech } from './text-to-speech.js'

/**
 * `audio`: a sound file mixed at the clip's time, with `trim`, `speed`, `volume` (or tween) and `effect`;
 * or, with `prompt` and `voice`, that prompt spoken by the render's speech engine (see text-to-speech.ts).
 */
export const audio = defineAssetPlugin({
  kind: 'asset',
  name: 'audio',
  schema: AudioAssetSchema,
  async prepare(params, ctx) {
    const where = `${ctx.path}.asset`
    if (!params.src && params.prompt !== undefined) {
      // Shotstack's AI form: with a voice it is speech; without one, music, which needs a provider.
      if (params.voice) return prepareSpeech({ ...params, text: params.prompt }, ctx)
      ctx.warn('music generation from a prompt needs a music provider, which is not configured; the clip is silent')
      return { size: null, duration: params.musicLengthMs !== undefined ? params.musicLengthMs / 1000 : undefined }
    }
    // The schema holds a src where there is no prompt (sourceOrPrompt, assets-media.ts).
    const src = params.src!
    const path = await ctx.load(src)
    const info = await probeMedia(path, src, ctx)
    if (!info.streams.some((s) => s.type === 'audio'))
      throw new RenderError('E_ASSET_UNREADABLE', `${where}.src: ${params.src} has no audio stream`, { path: `${where}.src` })
    const trim = params.trim ?? 0
    const speed = params.speed && params.speed > 0 ? params.speed : 1
    const fileDuration = info.duration ?? 0
    if (!(fileDuration > 0)) throw new RenderError('E_ASSET_UNREADABLE', `${where}.src: ${params.src} holds no sound (zero length)`, { path: `${where}.src` })
    return {
      size: null,
      duration: Math.max(0, fileDuration - trim) / speed,
      audio: { path, trim, speed, volume: params.volume ?? 1, effect: params.effect, duration: Math.max(0, fileDuration - trim) },
    }
  },
})
