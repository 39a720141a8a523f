import type { AiProviderPlugin } from '../../../core/index.js'
import { didAvatarProvider } from './did-avatar.js'
import { elevenlabsSpeechProvider } from './elevenlabs-speech.js'
import { espeakSpeechProvider } from './espeak-speech.js'
import { ffmpegUpscaleProvider } from './ffmpeg-upscale.js'
import { heygenAvatarProvider } from './heygen-avatar.js'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { localTranscriptionProvider } from './local-transcription.js'
import { lumaVideoProvider } from './luma-video.js'
import { openaiSpeechProvider } from './openai-speech.js'
import { openaiTextProvider } from './openai-text.js'
import { openaiTranscriptionProvider } from './openai-transcription.js'
import { runwayVideoProvider } from './runway-video.js'
import { sandboxAvatarProvider } from './sandbox-avatar.js'
import { sandboxTextProvider } from './sandbox-text.js'
import { sandboxVideoProvider } from './sandbox-video.js'
import type { PublishImage } from './video-clip.js'

const list = (value: string | undefined) =>
  value
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean)

/**
 * The AI task providers: the local engines always (espeak speech, ffmpeg upscale; the sandbox text, video and avatar
 * stand-ins for sandbox keys; PocketSphinx transcription where Debian's model is installed), and each vendor whose key is in the environment — `OPENAI_API_KEY` (text,
 * speech, transcription; `OPENAI_TEXT_BASE_URL`, `OPENAI_TRANSCRIPTION_BASE_URL` / `OPENAI_BASE_URL` for an OpenAI-compatible server such as Ollama, which needs
 * no key), `ELEVENLABS_API_KEY`, `RUNWAYML_API_SECRET`, `LUMAAI_API_KEY`, `DID_API_KEY` (D-ID avatars), `HEYGEN_API_KEY` (HeyGen
 * avatars) (each with an optional `_BASE_URL`).
 */
export function aiProvidersFromConfig(env: NodeJS.ProcessEnv = process.env, opts: { publishImage?: PublishImage } = {}): AiProviderPlugin[] {
  const out: AiProviderPlugin[] = [sandboxTextProvider, espeakSpeechProvider, ffmpegUpscaleProvider(), sandboxVideoProvider, sandboxAvatarProvider]
  // PocketSphinx only where its Debian model is installed: elsewhere live keys get the 422 that says what to set.
  const model = env.REELFORGE_POCKETSPHINX_MODEL ?? '/usr/share/pocketsphinx/model/en-us'
  if (existsSync(join(model, 'en-us.lm.bin'))) out.push(localTranscriptionProvider)
  const textBase = env.OPENAI_TEXT_BASE_URL ?? env.OPENAI_BASE_URL
  const textKey = env.OPENAI_TEXT_API_KEY ?? env.OPENAI_API_KEY
  if (textKey || env.OPENAI_TEXT_BASE_URL)
    out.push(openaiTextProvider({ apiKey: textKey, baseUrl: textBase, model: env.REELFORGE_TEXT_MODEL, models: list(env.REELFORGE_TEXT_MODELS) }))
  if (env.OPENAI_API_KEY) out.push(openaiSpeechProvider({ apiKey: env.OPENAI_API_KEY, baseUrl: env.OPENAI_BASE_URL }))
  const sttBase = env.OPENAI_TRANSCRIPTION_BASE_URL ?? env.OPENAI_BASE_URL
  if (env.OPENAI_API_KEY || env.OPENAI_TRANSCRIPTION_BASE_URL)
    out.push(openaiTranscriptionProvider({ apiKey: env.OPENAI_API_KEY, baseUrl: sttBase, model: env.REELFORGE_TRANSCRIPTION_MODEL }))
  if (env.ELEVENLABS_API_KEY) out.push(elevenlabsSpeechProvider({ apiKey: env.ELEVENLABS_API_KEY, baseUrl: env.ELEVENLABS_BASE_URL }))
  if (env.RUNWAYML_API_SECRET)
    out.push(runwayVideoProvider({ apiKey: env.RUNWAYML_API_SECRET, baseUrl: env.RUNWAYML_BASE_URL, publishImage: opts.publishImage }))
  if (env.LUMAAI_API_KEY) out.push(lumaVideoProvider({ apiKey: env.LUMAAI_API_KEY, baseUrl: env.LUMAAI_BASE_URL, publishImage: opts.publishImage }))
  if (env.DID_API_KEY) out.push(didAvatarProvider({ apiKey: env.DID_API_KEY, baseUrl: env.DID_BASE_URL }))
  if (env.HEYGEN_API_KEY) out.push(heygenAvatarProvider({ apiKey: env.HEYGEN_API_KEY, baseUrl: env.HEYGEN_BASE_URL }))
  return out
}
