import { join } from 'node:path'
import type { Animatable, Edit, ValidEdit } from '../../core/index.js'
import { clipTimings } from './expected.js'
import { measure, type Measure, type Point } from './measure.js'
import type { Frame, Prober } from './probe.js'

/** Offsets under this fraction of the frame are not probed: too small to tell from antialiasing. */
const MIN_OFFSET = 0.02
/**
 * Probes draw the clip at this fraction of its scale (both probes alike: an offset moves a clip by a fraction of
 * the frame whatever its size). Full size, a 800 px title in a 512 px preview is cut by the frame's edges, and
 * what the edge leaves of it (a glyph more or less) says nothing about where the clip went.
 */
const SHRINK = 0.25

export interface LayoutFailure {
  /** `timeline.tracks[0].clips[2]`. */
  clip: string
  offset: Point
  /** Centre of what the clip draws with its offset, in Shotstack's units: −0.5…0.5 from the frame's centre, +y up. */
  centroid: Point
  /** The same without its offset. */
  reference: Point
  /** What moved the wrong way: the centroid, or (where the frame's edge cuts the picture) an uncut edge of it. */
  by: 'centroid' | 'edge'
  /** The axis it went wrong on, and how far it moved along it (the offset's units: the offset is where it belongs). */
  axis: 'x' | 'y'
  moved: number
}

export interface LayoutCheck {
  /** Clips whose offset was verified on at least one axis (passed or failed). */
  checked: number
  failed: LayoutFailure[]
  /** Clips with an offset that could not be verified, and why. */
  skipped: { clip: string; reason: string }[]
}

/**
 * Checks that every clip with an offset is drawn on the side its offset says, from rendered pixels. Each such
 * clip is drawn alone (every other clip removed, so none covers it) on a transparent background at mid-clip,
 * shrunk (see SHRINK), once with its offset and once without; what it drew must move in the offset's direction.
 * Comparing with the clip's own unshifted picture, not with the frame's centre, keeps positions (a price at
 * `bottom` lifted by y 0.05 is still below the centre, and right), alignment in a text box and motion effects
 * out of the verdict: both probes share them.
 */
export async function checkLayout(probe: Prober, offline: Record<string, any>, valid: ValidEdit, dir: string): Promise<LayoutCheck> {
  const check: LayoutCheck = { checked: 0, failed: [], skipped: [] }
  const timings = await clipTimings(valid)
  let i = 0
  for (const [t, track] of valid.timeline.tracks.entries()) {
    for (const [c, clip] of track.clips.entries()) {
      const timing = timings[i++]!
      const { x = 0, y = 0 } = clip.offset ?? {}
      if (x === 0 && y === 0) continue
      const skip = (reason: string) => void check.skipped.push({ clip: timing.path, reason })
      // A tween moves the clip through the clip's life; one still cannot say where it should be.
      if (typeof x !== 'number' || typeof y !== 'number') skip('animated offset')
      else if (Math.abs(x) < MIN_OFFSET && Math.abs(y) < MIN_OFFSET) skip(`offset under ${MIN_OFFSET * 100} % of the frame`)
      else {
        let probed: Awaited<ReturnType<typeof verify>>
        try {
          probed = await verify((edit, name) => probe(edit, join(dir, `${timing.path}-${name}.png`)), offline, [t, c], clip.scale ?? 1, timing.length, { x, y })
        } catch (e) {
          skip(`cannot be drawn alone: ${(e as Error).message.split('\n')[0]}`)
          continue
        }
        const { verdict, at, ref } = probed
        if ('reason' in verdict) skip(verdict.reason)
        else check.checked++
        if ('wrong' in verdict) check.failed.push({ clip: timing.path, offset: { x, y }, centroid: at.centre!, reference: ref.centre!, ...verdict.wrong })
      }
    }
  }
  return check
}

/**
 * Per axis with a real offset: the centroid's shift, or where the frame's edge cuts the picture (a clip at
 * `position: bottom` sits on the edge until its offset lifts it) the shift of an edge the frame cuts in neither
 * probe, which is the picture's own edge and moves exactly as the clip does. Moved at least half the offset its
 * way: right; half of it the other way: wrong (a flipped axis moves it all of it the other way); in between, or
 * cut on both sides: no evidence either way.
 */
function judge(offset: Point, at: Measure, ref: Measure): { right: true } | { wrong: Pick<LayoutFailure, 'by' | 'axis' | 'moved'> } | { reason: string } {
  if (!ref.centre) return { reason: 'draws nothing at mid-clip (invisible, empty, audio or a luma matte)' }
  if (!at.centre) return { reason: 'its offset takes it out of the frame' }
  const notes: string[] = []
  let right = false
  for (const k of ['x', 'y'] as const) {
    if (Math.abs(offset[k]) < MIN_OFFSET) continue
    const [a, r] = [at[k]!, ref[k]!]
    const uncut = !a.loCut && !a.hiCut && !r.loCut && !r.hiCut
    const moved = uncut ? at.centre[k] - ref.centre[k] : !a.loCut && !r.loCut ? a.lo - r.lo : !a.hiCut && !r.hiCut ? a.hi - r.hi : undefined
    if (moved === undefined) notes.push(`the frame's edges cut it on both sides along ${k}`)
    else if (moved * Math.sign(offset[k]) >= Math.abs(offset[k]) / 2) right = true
    else if (moved * Math.sign(offset[k]) <= -Math.abs(offset[k]) / 2) return { wrong: { by: uncut ? 'centroid' : 'edge', axis: k, moved } }
    else notes.push(`moved ${moved.toFixed(3)} along ${k} for an offset of ${offset[k]}`)
  }
  return right ? { right } : { reason: notes.join('; ') }
}

/** Probes the clip shrunk, then as written if shrunk it vanishes (a 36 px label, or its offset takes it out of the frame). */
async function verify(
  still: (edit: Edit, name: string) => Promise<Frame>,
  offline: Record<string, any>,
  [t, c]: number[],
  scale: Animatable,
  length: number,
  offset: Point,
) {
  let last: { verdict: ReturnType<typeof judge>; at: Measure; ref: Measure } | undefined
  for (const k of [SHRINK, 1]) {
    const at = measure(await still(probeEdit(offline, t!, c!, { length, scale: times(scale, k), zero: false }), `offset-${k}`))
    const ref = measure(await still(probeEdit(offline, t!, c!, { length, scale: times(scale, k), zero: true }), `reference-${k}`))
    last = { verdict: judge(offset, at, ref), at, ref }
    if (at.centre && ref.centre) break
  }
  return last!
}

/** A clip's scale times k; a tween keeps its shape. */
function times(scale: Animatable, k: number): Animatable {
  return typeof scale === 'number' ? scale * k : scale.map((tw) => ({ ...tw, from: tw.from * k, to: tw.to * k }))
}

/** The edit with only clip `c` of track `t`, from 0 for its resolved length, as a still of its middle. */
function probeEdit(offline: Record<string, any>, t: number, c: number, o: { length: number; scale: Animatable; zero: boolean }): Edit {
  const clip = { ...structuredClone(offline.timeline.tracks[t].clips[c]), start: 0, length: o.length, scale: o.scale }
  if (o.zero) delete clip.offset
  const { size, resolution, aspectRatio, fps } = offline.output ?? {}
  return {
    ...(offline.merge ? { merge: offline.merge } : {}),
    timeline: { background: 'transparent', fonts: offline.timeline.fonts, tracks: [{ clips: [clip] }] },
    output: { format: 'png', size, resolution, aspectRatio, fps, range: { start: o.length / 2 } },
  } as Edit
}
