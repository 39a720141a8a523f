import { resolveTiming, type ValidEdit } from '../../core/index.js'
import { speak } from '../../plugins/lib/audio/speech.js'
import { STAND_IN_SECONDS } from './standins.js'

const STILL_FORMATS = new Set(['jpg', 'png', 'bmp'])

/** The stand-in kind a rewritten URL serves (`…/video.mp4` → video). */
const kindOfUrl = (src: unknown) => (typeof src === 'string' ? /\/standin\/([a-z-]+)\.[a-z0-9]+$/.exec(src)?.[1] : undefined)

/**
 * How long an asset plays by itself, from what the runner knows independently of the plugins: the
 * stand-ins' lengths, the spoken text's length, the generation parameters. Undefined for stills.
 */
async function naturalDuration(asset: Record<string, any>): Promise<number | undefined> {
  const trim = Number(asset.trim ?? 0)
  const speed = Number(asset.speed) > 0 ? Number(asset.speed) : 1
  const kind = kindOfUrl(asset.src)
  const media = kind === 'video' || kind === 'audio' || kind === 'luma' ? STAND_IN_SECONDS[kind] : undefined
  if (['video', 'audio', 'luma'].includes(asset.type) && media !== undefined) return Math.max(0, media - trim) / speed
  if (asset.type === 'video' && !asset.src && asset.prompt) return Number(asset.duration) > 0 ? Number(asset.duration) : undefined
  const spoken = asset.type === 'text-to-speech' ? asset.text : asset.type === 'audio' && !asset.src && asset.voice ? asset.prompt : undefined
  if (typeof spoken === 'string' && spoken.trim()) return Math.max(0, (await speak(spoken, asset)).duration - trim) / speed
  if (asset.type === 'audio' && !asset.src && asset.musicLengthMs) return Number(asset.musicLengthMs) / 1000
  return undefined
}

/** Every clip's resolved start and length, in timeline order, as `resolveTiming` gives them. */
export async function clipTimings(edit: ValidEdit): Promise<{ path: string; start: number; length: number }[]> {
  const clips = await Promise.all(
    edit.timeline.tracks.flatMap((track, t) =>
      track.clips.map(async (clip, c) => ({
        path: `timeline.tracks[${t}].clips[${c}]`,
        track: t,
        start: clip.start as number | string,
        length: clip.length as number | string,
        alias: clip.alias,
        duration: await naturalDuration(clip.asset),
      })),
    ),
  )
  return resolveTiming(clips).map((x, i) => ({ path: clips[i]!.path, ...x }))
}

/**
 * The duration the output should have: the timeline's end (or `output.range`), rounded to whole frames.
 * Undefined for still formats, which have none.
 */
export async function expectedDuration(edit: ValidEdit): Promise<number | undefined> {
  const output = edit.output as Record<string, any>
  if (STILL_FORMATS.has(output.format)) return undefined
  const seconds = Math.max(0, ...(await clipTimings(edit)).map((x) => x.start + x.length))
  const fps = Number(output.fps ?? 25)
  // Whole frames, as any encoder must write them: the range's first and last frame are rounded too.
  const total = Math.round(seconds * fps)
  const first = Math.round(Number(output.range?.start ?? 0) * fps)
  const last = output.range?.length !== undefined ? Math.min(total, first + Math.round(Number(output.range.length) * fps)) : total
  return Math.max(0, last - first) / fps
}
