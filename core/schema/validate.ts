import * as v from 'valibot'
import { capped, invalidTimeline, pluginError, type Issue, type Warning } from '../errors.js'
import { applyMerge } from '../plan/merge.js'
import { EditSchema, MergeFieldSchema, type EditOutput } from './edit.js'
import { FITS } from './names.js'
import { FORMATS } from './output.js'
import { toIssues } from './issues.js'
import { unknownKeys } from './unknown-keys.js'
import { knownList } from './closest.js'
import { show } from './primitives.js'
import { standIns } from './stand-ins.js'

/** What a name in the edit may refer to: Shotstack's own names plus every registered plugin. */
export interface KnownNames {
  assetSchema(type: string): v.GenericSchema | undefined
  assetTypes(): string[]
  transitions(): string[]
  effects(): string[]
  filters(): string[]
  /** Fit names: Shotstack's four plus every fit plugin's. */
  fits?(): string[]
  /** Output formats the registry has plugins for, beyond Shotstack's (`FORMATS`, which the schema lists). */
  outputs?(): string[]
}

/** An asset after its own schema parsed it. */
export type ParsedAsset = { type: string } & Record<string, unknown>
export type ValidEdit = Omit<EditOutput, 'timeline'> & {
  timeline: Omit<EditOutput['timeline'], 'tracks'> & {
    tracks: { clips: (Omit<EditOutput['timeline']['tracks'][number]['clips'][number], 'asset'> & { asset: ParsedAsset })[] }[]
  }
}

/** The deepest a real edit nests is about 10 levels; hostile input may nest thousands (stack overflows). */
const MAX_DEPTH = 64

/** The path of the first value nested deeper than `max`, or undefined; iterative, so any depth is safe. */
function deeperThan(root: unknown, max: number): string | undefined {
  const stack: [unknown, string, number][] = [[root, '', 0]]
  while (stack.length) {
    const [value, path, depth] = stack.pop()!
    if (!value || typeof value !== 'object') continue
    if (depth >= max) return path
    if (Array.isArray(value)) value.forEach((v, i) => stack.push([v, `${path}[${i}]`, depth + 1]))
    else for (const [k, v] of Object.entries(value)) stack.push([v, path ? `${path}.${k}` : k, depth + 1])
  }
  return undefined
}

/** How to read the edit. */
export interface ValidateOptions {
  /**
   * A saved template: each placeholder its `merge` leaves without a value stands for any value of its field
   * (see stand-ins.ts), everything else is checked in full, and the fields placeholders fill come back as `open`
   * for the checks beyond the schema (sources, callbacks) to leave to the render, which merges every value.
   */
  template?: boolean
}

/**
 * Validates a Shotstack edit: applies `merge` first, checks the structure, each asset against the schema
 * of its `type`, and every transition/effect/filter name. Returns the typed edit and warnings (unknown
 * keys, unresolved merge fields), or throws one `E_TIMELINE_INVALID` listing every issue with its path.
 */
export function validateEdit(input: unknown, known: KnownNames, opts: ValidateOptions = {}): { edit: ValidEdit; warnings: Warning[]; open: string[] } {
  if (!input || typeof input !== 'object' || Array.isArray(input)) {
    throw invalidTimeline([{ path: '', message: `the edit must be a JSON object, got ${show(input)}` }])
  }
  const tooDeep = deeperThan(input, MAX_DEPTH)
  if (tooDeep !== undefined) throw invalidTimeline([{ path: tooDeep, message: `nesting is deeper than ${MAX_DEPTH} levels; no edit needs that` }])
  const raw = input as Record<string, unknown>
  const issues: Issue[] = []

  // 1. Merge fields are applied before anything else, so they need checking first.
  const merge = v.safeParse(v.optional(v.array(MergeFieldSchema)), raw.merge)
  if (!merge.success) throw invalidTimeline(toIssues(merge.issues, 'merge'))
  const { merge: _merge, ...rest } = raw
  const merged = applyMerge(rest, merge.output)
  const { value, open } = opts.template ? standIns(merged.value, known) : { value: merged.value, open: [] }
  const candidate: Record<string, unknown> = { ...value, ...(merge.output ? { merge: merge.output } : {}) }

  // 2. Structure (assets are loose here; their own schemas come next). A format only a plugin knows is checked
  // as Shotstack's default would be (the schema lists Shotstack's formats, as its OpenAPI document does), then kept.
  const added = addedFormat(candidate, known)
  const parsed = v.safeParse(EditSchema, added ? { ...candidate, output: { ...(candidate.output as object), format: 'mp4' } } : candidate)
  if (!parsed.success) issues.push(...toIssues(parsed.issues))
  else if (added) (parsed.output.output as { format: string }).format = added

  // 3. Each asset against the schema of its type; each motion/look name against what is known.
  const assets = new Map<string, ParsedAsset>()
  forEachClip(candidate, (clip, path) => {
    checkAsset(clip.asset, `${path}.asset`, known, issues, assets, open)
    checkNames(clip, path, known, issues, open)
  })

  if (issues.length) throw invalidTimeline(issues)
  const edit = parsed.output as unknown as ValidEdit
  edit.timeline.tracks.forEach((track, t) => track.clips.forEach((clip, c) => (clip.asset = assets.get(clipPath(t, c))!)))

  // 4. Warnings: merge fields without a value, keys nobody reads, offsets past the seed's range.
  // A template's placeholders are left without values on purpose; a render's are worth a warning.
  const warnings: Warning[] = [...(opts.template ? [] : merged.warnings), ...unknownKeys(EditSchema, candidate, '', (p) => /\.clips\[\d+\]\.asset$/.test(p))]
  forEachClip(candidate, (clip, path) => {
    const schema = known.assetSchema(String((clip.asset as { type?: unknown })?.type))
    // `type` chose the plugin and is kept (checkAsset): never "ignored", though a plugin's schema may not list it.
    if (schema) warnings.push(...unknownKeys(schema, clip.asset, `${path}.asset`).filter((w) => w.path !== `${path}.asset.type`))
    // Shotstack's spec allows 0; such a clip is never drawn, which is seldom meant.
    if (clip.length === 0) warnings.push({ path: `${path}.length`, message: '0 s: the clip is never shown' })
    for (const axis of ['x', 'y'] as const) {
      const o = (clip.offset as Record<string, unknown> | undefined)?.[axis]
      if (typeof o === 'number' && Math.abs(o) > 1)
        warnings.push({ path: `${path}.offset.${axis}`, message: `${o} is outside -1..1; the clip is placed partly or wholly off-frame` })
    }
  })
  return { edit, warnings: capped(warnings, 'warnings'), open }
}

/** `output.format` when it names a plugin's format that is not one of Shotstack's. */
function addedFormat(edit: Record<string, unknown>, known: KnownNames): string | undefined {
  const format = (edit.output as { format?: unknown } | undefined)?.format
  return typeof format === 'string' && !(FORMATS as readonly string[]).includes(format) && known.outputs?.().includes(format) ? format : undefined
}

const clipPath = (t: number, c: number) => `timeline.tracks[${t}].clips[${c}]`

type LooseClip = Record<string, unknown> & { asset?: unknown }
function forEachClip(edit: Record<string, unknown>, fn: (clip: LooseClip, path: string) => void) {
  const tracks = (edit.timeline as { tracks?: unknown } | undefined)?.tracks
  if (!Array.isArray(tracks)) return
  tracks.forEach((track, t) => {
    const clips = (track as { clips?: unknown } | undefined)?.clips
    if (!Array.isArray(clips)) return
    clips.forEach((clip, c) => {
      if (clip && typeof clip === 'object') fn(clip as LooseClip, clipPath(t, c))
    })
  })
}

function checkAsset(asset: unknown, path: string, known: KnownNames, issues: Issue[], out: Map<string, ParsedAsset>, open: readonly string[]) {
  if (!asset || typeof asset !== 'object' || typeof (asset as { type?: unknown }).type !== 'string') return // reported by step 2
  const type = (asset as { type: string }).type
  const schema = known.assetSchema(type)
  if (!schema) {
    issues.push({ path: `${path}.type`, message: `unknown asset type ${show(type)}; known: ${known.assetTypes().join(', ')}` })
    return
  }
  let result: ReturnType<typeof v.safeParse>
  try {
    result = v.safeParse(schema, asset)
  } catch (e) {
    // A plugin's check that throws (instead of reporting an issue) is the plugin's failure, not the edit's.
    throw pluginError('asset', type, 'schema', e, path)
  }
  // The type chose the plugin: kept, though a plugin's schema may not list it (a plain `v.object` drops it).
  if (!result.success) return void issues.push(...toIssues(result.issues, path))
  const parsed = result.output as ParsedAsset
  out.set(path.slice(0, -'.asset'.length), parsed.type === undefined ? ({ ...parsed, type } as ParsedAsset) : parsed)
  checkCrop(parsed, path, issues, open)
}

/** A crop must leave some of the asset: left + right and top + bottom below 1 (each side alone is 0–1 by the schema). */
function checkCrop(asset: ParsedAsset, path: string, issues: Issue[], open: readonly string[]) {
  const crop = (asset as { crop?: { left?: number; right?: number; top?: number; bottom?: number } }).crop
  if (!crop) return
  // A template's placeholder stands for any value of its side: that pair is checked once merged.
  const held = (side: string) => open.includes(`${path}.crop.${side}`)
  for (const [a, b] of [
    ['left', 'right'],
    ['top', 'bottom'],
  ] as const)
    if (!held(a) && !held(b) && (crop[a] ?? 0) + (crop[b] ?? 0) >= 1)
      issues.push({ path: `${path}.crop`, message: `${a} + ${b} must be below 1: nothing of the asset would be left` })
}

function checkNames(clip: LooseClip, path: string, known: KnownNames, issues: Issue[], open: readonly string[]) {
  const check = (value: unknown, at: string, names: () => string[], what: string) => {
    if (typeof value !== 'string' || open.includes(at)) return
    const all = names()
    if (!all.includes(value)) issues.push({ path: at, message: `unknown ${what} ${show(value)}; ${knownList(value, all)}` })
  }
  const transition = clip.transition as Record<string, unknown> | undefined
  if (transition && typeof transition === 'object') {
    check(transition.in, `${path}.transition.in`, known.transitions, 'transition')
    check(transition.out, `${path}.transition.out`, known.transitions, 'transition')
  }
  check(clip.effect, `${path}.effect`, known.effects, 'effect')
  check(clip.filter, `${path}.filter`, known.filters, 'filter')
  check(clip.fit, `${path}.fit`, known.fits ?? (() => [...FITS]), 'fit')
}
