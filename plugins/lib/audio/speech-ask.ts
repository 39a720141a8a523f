import type { AiAsk } from '../../../core/index.js'

/** Polly's newscaster style is brisker: espeak's 185 words a minute against its usual 165. */
const NEWSCASTER_PACE = 185 / 165

/**
 * The speech task a voice-over asks for. The clip's `speed` is playback (a retime, like any audio clip), not
 * the voice's pace; a caption of the clip asks the very same, so the render runs it once and both agree.
 */
export function speechAsk(params: { text: string; voice?: string; language?: string; newscaster?: boolean }): AiAsk<'speech'> {
  return {
    text: params.text,
    voice: params.voice,
    language: params.language,
    speed: params.newscaster ? NEWSCASTER_PACE : undefined,
    format: 'wav',
  }
}
