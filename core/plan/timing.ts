import { invalidTimeline, type Issue } from '../errors.js'

/** A clip's timing as written, with what the asset knows about its own duration. */
export interface TimingInput {
  path: string
  track: number
  start: number | string
  length: number | string
  alias?: string
  /** The asset's natural playing time (seconds); undefined for stills. */
  duration?: number
}

/** Still assets with `length: "auto"` last 3 s (SHOTSTACK.md §4.1). */
export const STILL_AUTO_LENGTH = 3

/**
 * Resolves smart clips (SHOTSTACK.md §4.1, as Shotstack's editor does): `start: "auto"` follows the previous
 * clip on the same track; `length: "auto"` is the asset's duration (3 s for stills); `alias://name` copies
 * that clip's start or length; `length: "end"` runs to the end of the timeline, which is the latest end of all
 * clips that are not themselves `end`. Cycles and unknown aliases are errors naming the clip.
 */
export function resolveTiming(clips: readonly TimingInput[]): { start: number; length: number }[] {
  const issues: Issue[] = []
  const byAlias = new Map<string, number>()
  clips.forEach((c, i) => {
    if (!c.alias) return
    if (byAlias.has(c.alias)) issues.push({ path: `${c.path}.alias`, message: `alias "${c.alias}" is already used by ${clips[byAlias.get(c.alias)!]!.path}` })
    else byAlias.set(c.alias, i)
  })
  const start: (number | undefined)[] = clips.map((c) => (typeof c.start === 'number' ? c.start : undefined))
  const length: (number | undefined)[] = clips.map((c) =>
    typeof c.length === 'number' ? c.length : c.length === 'auto' ? (c.duration ?? STILL_AUTO_LENGTH) : undefined,
  )
  const prevOnTrack = clips.map((c, i) => {
    for (let j = i - 1; j >= 0; j--) if (clips[j]!.track === c.track) return j
    return -1
  })
  const aliasTarget = (ref: string, path: string, field: string): number | undefined => {
    const name = ref.slice('alias://'.length)
    const j = byAlias.get(name)
    if (j === undefined) issues.push({ path: `${path}.${field}`, message: `no clip has alias "${name}"` })
    return j
  }

  // Propagate until nothing changes; `end` lengths wait for everything else.
  const resolveEnds = () => {
    const ends = clips.map((c, i) => (c.length !== 'end' && start[i] !== undefined && length[i] !== undefined ? start[i]! + length[i]! : -Infinity))
    const timelineEnd = Math.max(0, ...ends)
    clips.forEach((c, i) => {
      if (c.length === 'end' && start[i] !== undefined && length[i] === undefined) length[i] = Math.max(0.1, timelineEnd - start[i]!)
    })
  }
  for (let pass = 0, changed = true; changed && pass <= clips.length + 1; pass++) {
    changed = false
    clips.forEach((c, i) => {
      if (start[i] === undefined) {
        if (c.start === 'auto') {
          const p = prevOnTrack[i]!
          const v = p < 0 ? 0 : start[p] !== undefined && length[p] !== undefined ? start[p]! + length[p]! : undefined
          if (v !== undefined) (start[i] = v), (changed = true)
        } else if (typeof c.start === 'string' && c.start.startsWith('alias://')) {
          const j = aliasTarget(c.start, c.path, 'start')
          if (j !== undefined && start[j] !== undefined) (start[i] = start[j]), (changed = true)
        }
      }
      if (length[i] === undefined && typeof c.length === 'string' && c.length.startsWith('alias://')) {
        const j = aliasTarget(c.length, c.path, 'length')
        if (j !== undefined && length[j] !== undefined) (length[i] = length[j]), (changed = true)
      }
    })
    if (!changed && clips.some((c, i) => c.length === 'end' && length[i] === undefined && start[i] !== undefined)) {
      resolveEnds()
      changed = true
    }
  }
  clips.forEach((c, i) => {
    if (start[i] === undefined)
      issues.push({ path: `${c.path}.start`, message: `cannot resolve start ${JSON.stringify(c.start)} (circular or unresolvable reference)` })
    else if (length[i] === undefined)
      issues.push({ path: `${c.path}.length`, message: `cannot resolve length ${JSON.stringify(c.length)} (circular or unresolvable reference)` })
  })
  if (issues.length) throw invalidTimeline(dedupe(issues))
  return clips.map((_, i) => ({ start: start[i]!, length: length[i]! }))
}

function dedupe(issues: Issue[]): Issue[] {
  return [...new Map(issues.map((i) => [`${i.path}:${i.message}`, i])).values()]
}
