import type { Size } from '../plugin.js'
import type { ValidEdit } from '../schema/validate.js'

type Clip = ValidEdit['timeline']['tracks'][number]['clips'][number]

/**
 * What a clip's prepared asset depends on, as a string: its asset as written, its box and numeric length, the
 * clips its `alias://` sources name, and the plan's `context` (frame size and rate, y-axis, the timeline's fonts).
 * Not where the clip is (track, start): a preview session keeps a clip's prepared asset — and its open decoder —
 * when it is moved, and prepares it again only when one of these changes.
 */
export function prepareKey(clip: Clip, aliases: ReadonlyMap<string, Clip>, context: string): string {
  const box: Size | undefined = clip.width || clip.height ? { width: clip.width ?? 0, height: clip.height ?? 0 } : undefined
  const asset = JSON.stringify(clip.asset)
  // Captions of a voice-over read the aliased clip's asset and where it starts relative to this one.
  const named = asset.includes('alias://')
    ? [...aliases].map(([name, target]) => [
        name,
        target.asset,
        typeof target.start === 'number' && typeof clip.start === 'number' ? target.start - clip.start : 0,
      ])
    : []
  return JSON.stringify([context, asset, box ?? null, typeof clip.length === 'number' ? clip.length : null, named])
}

/** The plan-wide part of every clip's key. */
export const planContext = (edit: ValidEdit, frame: Size, fps: number, yAxis: string, cores?: number) =>
  JSON.stringify([frame.width, frame.height, fps, yAxis, cores ?? null, edit.timeline.fonts ?? null])
