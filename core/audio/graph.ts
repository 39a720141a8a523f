import type { AudioMix } from '../plugin.js'
import type { Animatable } from '../schema/primitives.js'
import { compileTrack } from '../plan/tween.js'
import type { AudioSource } from './types.js'

/** A sound placed on the output timeline. */
export interface Placement {
  source: AudioSource
  /** Seconds on the timeline where it starts. */
  start: number
  /** Seconds it plays for at most (the clip's length). */
  length: number
  /** Where the edit asks for it (`timeline.tracks[0].clips[2]`, `timeline.soundtrack`), for messages. */
  path?: string
}

/** Length of a fadeIn/fadeOut effect, at most half of what it fades. */
export const AUDIO_FADE_SECONDS = 1

const f = (n: number) => Number(n.toFixed(6)).toString()

/**
 * One ffmpeg audio graph for a whole render. Each sound is cut (`atrim`), retimed (`atempo`), given its
 * volume (constant or tweened over clip time) and fades, then delayed to its start (`adelay`). The mix
 * rule: **sources add at their own volumes** — `amix` with `normalize=0`, so two sources at volume 1 both
 * play at full level instead of being halved; a peak limiter at 0 dBFS (auto-levelling off) only catches
 * sums that would clip. The result is cut to `[rangeStart, rangeStart + duration)` and padded with silence
 * to exactly `duration`, so audio and video have the same length.
 *
 * @param firstInput ffmpeg input index of the first sound (0 is the piped video).
 */
export function buildAudioMix(placements: readonly Placement[], rangeStart: number, duration: number, firstInput = 1): AudioMix | undefined {
  const usable = placements.filter((p) => p.length > 0 && p.start < rangeStart + duration && volumeCanBeHeard(p.source.volume))
  if (!usable.length) return undefined
  const inputs: string[][] = []
  const chains: string[] = []
  usable.forEach((p, i) => {
    const { source } = p
    inputs.push(['-i', source.path])
    const speed = source.speed > 0 ? source.speed : 1
    const playable = source.duration !== undefined ? Math.min(p.length, source.duration / speed) : p.length
    const steps = [
      `atrim=start=${f(source.trim)}:duration=${f(playable * speed)}`,
      'asetpts=PTS-STARTPTS',
      ...atempo(speed),
      'aformat=sample_fmts=fltp:sample_rates=48000:channel_layouts=stereo',
      volumeFilter(source.volume),
      ...fades(source.effect, playable),
      `adelay=${Math.round(p.start * 1000)}:all=1`,
    ]
    chains.push(`[${firstInput + i}:a]${steps.join(',')}[a${i}]`)
  })
  const labels = usable.map((_, i) => `[a${i}]`).join('')
  const mix = usable.length > 1 ? `${labels}amix=inputs=${usable.length}:normalize=0:dropout_transition=0:duration=longest` : `${labels}anull`
  chains.push(`${mix},alimiter=limit=1:level=0:latency=1,apad,atrim=start=${f(rangeStart)}:end=${f(rangeStart + duration)},asetpts=PTS-STARTPTS[aout]`)
  return { inputs, filter: chains.join(';') }
}

/** atempo takes 0.5…2 per instance on older ffmpeg: chain instances for any speed. */
function atempo(speed: number): string[] {
  if (speed === 1) return []
  const out: string[] = []
  let s = speed
  while (s > 2) out.push('atempo=2'), (s /= 2)
  while (s < 0.5) out.push('atempo=0.5'), (s /= 0.5)
  out.push(`atempo=${f(s)}`)
  return out
}

function volumeCanBeHeard(volume: Animatable): boolean {
  return typeof volume === 'number' ? volume > 0 : volume.some((t) => t.from > 0 || t.to > 0)
}

/**
 * A constant volume, or a tween as a piecewise-linear expression of clip time `t` (bezier segments are
 * sampled every 1/8 of their length — inaudibly close to the curve).
 */
export function volumeFilter(volume: Animatable): string {
  if (typeof volume === 'number') return `volume=${f(volume)}`
  const track = compileTrack(volume, 1)
  const points: [number, number][] = []
  const sorted = [...volume].sort((a, b) => a.start - b.start)
  for (const seg of sorted) {
    const n = seg.interpolation === 'linear' ? 1 : 8
    for (let i = 0; i <= n; i++) {
      const t = seg.start + (seg.length * i) / n
      points.push([t, track(Math.min(t, seg.start + seg.length - 1e-9))])
    }
    points.push([seg.start + seg.length, track(seg.start + seg.length)])
  }
  // Before the first point: its value; after the last: the last value.
  let expr = f(points.at(-1)![1])
  for (let i = points.length - 2; i >= 0; i--) {
    const [t0, v0] = points[i]!
    const [t1, v1] = points[i + 1]!
    if (t1 <= t0) continue
    expr = `if(lt(t,${f(t1)}),${f(v0)}+(${f(v1 - v0)})*(t-${f(t0)})/${f(t1 - t0)},${expr})`
  }
  expr = `if(lt(t,${f(points[0]![0])}),${f(points[0]![1])},${expr})`
  return `volume='${expr}':eval=frame`
}

function fades(effect: AudioSource['effect'], length: number): string[] {
  const d = Math.min(AUDIO_FADE_SECONDS, length / 2)
  if (!effect || effect === 'none' || d <= 0) return []
  const out: string[] = []
  if (effect === 'fadeIn' || effect === 'fadeInFadeOut') out.push(`afade=t=in:st=0:d=${f(d)}`)
  if (effect === 'fadeOut' || effect === 'fadeInFadeOut') out.push(`afade=t=out:st=${f(length - d)}:d=${f(d)}`)
  return out
}
