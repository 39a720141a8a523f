import { readFile } from 'node:fs/promises'
import { RenderError, type PrepareContext, type TimedWord } from '../../../core/index.js'
import { speechAsk } from '../audio/speech-ask.js'
import { cuesFromWords } from './subtitle-writer.js'
import { cuesFromSpeech, parseSubtitles, parseTtml, type Cue } from './subtitles.js'

const MEDIA = /\.(mp4|mov|m4v|webm|mkv|avi|mp3|wav|m4a|aac|flac|ogg|oga|opus)(\?|#|$)/i

/** What speaks in an aliased clip, if we can know its words without transcribing audio. */
function spokenText(asset: {
  type: string
  [k: string]: unknown
}): { text: string; voice?: string; language?: string; newscaster?: boolean; speed?: number } | undefined {
  const str = (k: string) => (typeof asset[k] === 'string' ? (asset[k] as string) : undefined)
  const speech = {
    voice: str('voice'),
    language: str('language'),
    newscaster: asset.newscaster === true || asset.newscaster === 'true',
    speed: typeof asset.speed === 'number' ? asset.speed : undefined,
  }
  if (asset.type === 'text-to-speech' && str('text') !== undefined) return { ...speech, text: str('text')! }
  if (asset.type === 'audio' && str('prompt') !== undefined && speech.voice && !asset.src) return { ...speech, text: str('prompt')! }
  return undefined
}

/**
 * The cues a caption shows, in the caption clip's own time: parsed from an SRT, VTT or TTML file, or, for
 * `alias://` to a text-to-speech clip, its words as the speech engine timed them (the very speech the voice clip
 * plays: espeak's own word events locally, a vendor's timestamps); for `alias://` to a video or audio clip, or a media file as `src`,
 * what is said in it, through the renderer's transcription engine (`ctx.transcribe`), in the clip's timing.
 */
export async function loadCues(src: string, ctx: PrepareContext): Promise<Cue[]> {
  const where = `${ctx.path}.asset.src`
  if (src.startsWith('alias://')) {
    const name = src.slice('alias://'.length)
    const target = ctx.alias(name)
    if (!target)
      throw new RenderError('E_TIMELINE_INVALID', `${where}: no clip has alias "${name}"`, {
        issues: [{ path: where, message: `no clip has alias "${name}"` }],
      })
    const spoken = spokenText(target.asset)
    if (!spoken) {
      const sounding = target.asset.type === 'video' || target.asset.type === 'audio'
      const media = sounding && typeof target.asset.src === 'string' ? target.asset.src : undefined
      if (!media) {
        ctx.warn(`captions from "${src}": a ${target.asset.type} clip has no sound to transcribe; the caption shows nothing`)
        return []
      }
      // The clip plays its file from `trim` at `speed`, starting `offset` after the caption clip.
      const trim = typeof target.asset.trim === 'number' ? target.asset.trim : 0
      const speed = typeof target.asset.speed === 'number' && target.asset.speed > 0 ? target.asset.speed : 1
      return (await transcribed(media, ctx))
        .map((c) => ({ ...c, start: target.offset + (c.start - trim) / speed, end: target.offset + (c.end - trim) / speed }))
        .filter((c) => c.end > target.offset)
    }
    // The same ask as the voice clip's, so the render's engine answers once and the words are the voice's own.
    const speech = await ctx.runAi('speech', speechAsk(spoken))
    const speed = spoken.speed && spoken.speed > 0 ? spoken.speed : 1
    const cues = speech.words.length ? spokenCues(speech.words) : cuesFromSpeech(spoken.text, speech.duration)
    return cues.map((c) => ({ ...c, start: target.offset + c.start / speed, end: target.offset + c.end / speed }))
  }
  if (MEDIA.test(src)) return transcribed(src, ctx)
  const text = await readFile(await ctx.load(src), 'utf8')
  const cues = /<tt\b/.test(text) ? parseTtml(text) : parseSubtitles(text)
  if (!cues.length) ctx.warn(`${src} holds no subtitle cues (expected SRT, WebVTT or TTML); the caption shows nothing`)
  return cues
}

/** Cues from what is said in a media file, through the renderer's transcription engine (none: a warning). */
async function transcribed(src: string, ctx: PrepareContext): Promise<Cue[]> {
  const words = await ctx.transcribe(await ctx.load(src))
  if (!words) {
    ctx.warn(
      `captions from "${src}" need speech-to-text, and no transcription engine is registered (install pocketsphinx pocketsphinx-en-us, or register one); the caption shows nothing`,
    )
    return []
  }
  if (!words.length) ctx.warn(`nothing was heard in "${src}"; the caption shows nothing`)
  return spokenCues(words)
}

/**
 * Cues of timed words, each one paragraph: the caption wraps it to its own box, so a portrait video does not get
 * a landscape line broken again ("the camera drifts toward the paint as the / day turns" left a lone "the").
 * Files (SRT, VTT, TTML) keep the line breaks their author chose.
 */
function spokenCues(words: TimedWord[]): Cue[] {
  return cuesFromWords(words).map((c) => ({ start: c.start, end: c.end, text: c.lines.join(' ') }))
}

/** Words of a cue with the times they are spoken: the cue's span shared out by word length. */
export function wordTimes(cue: Cue): { start: number; end: number }[] {
  const words = cue.text.split(/\s+/).filter(Boolean)
  const total = words.reduce((n, w) => n + w.length + 1, 0) || 1
  let t = cue.start
  return words.map((w) => {
    const d = ((w.length + 1) / total) * (cue.end - cue.start)
    const span = { start: t, end: t + d }
    t += d
    return span
  })
}
