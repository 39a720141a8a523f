import { familyKey, splitWeightName } from '../../core/index.js'
import { builtinFonts } from '../../plugins/index.js'
import { kindFor, type StandInKind } from './standins.js'

/** A source the runner replaced, and what stands in for it. */
export interface Replacement {
  /** Where it was: `timeline.tracks[0].clips[2].asset.src`, `merge[1].replace`. */
  path: string
  from: string
  kind: StandInKind
  url: string
}

/** Serves a stand-in and returns its loopback URL. */
export type ServeStandIn = (kind: StandInKind, ext: string, from: string) => string

const PLACEHOLDER = /^\s*\{\{\s*([^{}]+?)\s*\}\}\s*$/
const isRemote = (s: string) => /^https?:\/\//i.test(s)
/**
 * A path to a file beside the edit (`media/clip.mp4`, `./logo.png`, `/srv/a.jpg`): stood in for as a URL is, since
 * the runner renders offline from stand-ins wherever an edit's sources live (and a relative path would otherwise
 * resolve against the folder the runner was started in). Inline markup and `alias://` references are not paths.
 */
const isLocalFile = (s: string) => !/[<\s]/.test(s) && !/^[a-z][a-z0-9+.-]*:/i.test(s) && /\.[a-z0-9]{2,5}$/i.test(s)

/** The edit inside a file: a bare edit, or a saved template `{ name?, template }`. */
export function unwrap(file: unknown): unknown {
  if (file && typeof file === 'object' && !Array.isArray(file) && 'template' in file && !('timeline' in file)) return (file as { template: unknown }).template
  return file
}

/**
 * A copy of `edit` whose remote media (and media placeholders without a merge value) point at stand-ins,
 * so any edit renders offline. Merge values that are URLs are replaced the same way, typed by where their
 * placeholder is used. Nothing else changes.
 */
export function rewriteSources(edit: Record<string, unknown>, serve: ServeStandIn): { edit: Record<string, unknown>; replaced: Replacement[] } {
  const out = structuredClone(edit) as Record<string, any>
  const replaced: Replacement[] = []
  const merge: { find: string; replace: unknown }[] = Array.isArray(out.merge) ? out.merge : []
  const merged = new Set(merge.map((m) => String(m.find).trim()))
  const readerOf = new Map<string, string>()

  const visit = (holder: Record<string, any>, key: string, path: string, reader: string) => {
    const src = holder[key]
    if (typeof src !== 'string') return
    const placeholder = PLACEHOLDER.exec(src)?.[1]
    if (placeholder) {
      readerOf.set(placeholder, reader)
      if (merged.has(placeholder)) return
    } else if (!isRemote(src) && !isLocalFile(src)) return
    const { kind, ext } = kindFor(src, reader)
    holder[key] = serve(kind, ext, src)
    replaced.push({ path, from: src, kind, url: holder[key] })
  }

  const timeline = out.timeline ?? {}
  ;(timeline.tracks ?? []).forEach((track: any, t: number) =>
    (track?.clips ?? []).forEach((clip: any, c: number) => {
      const asset = clip?.asset
      if (!asset || typeof asset !== 'object') return
      const at = `timeline.tracks[${t}].clips[${c}].asset`
      visit(asset, 'src', `${at}.src`, String(asset.type))
      visit(asset, 'inputSrc', `${at}.inputSrc`, 'image')
    }),
  )
  if (timeline.soundtrack) visit(timeline.soundtrack, 'src', 'timeline.soundtrack.src', 'soundtrack')
  ;(timeline.fonts ?? []).forEach((font: any, i: number) => font && visit(font, 'src', `timeline.fonts[${i}].src`, 'font'))
  merge.forEach((m, i) => {
    if (typeof m.replace !== 'string' || !(isRemote(m.replace) || isLocalFile(m.replace))) return
    const reader = readerOf.get(String(m.find).trim())
    if (reader) visit(m, 'replace', `merge[${i}].replace`, reader)
  })
  return { edit: out, replaced }
}

/**
 * The built-in font file that best stands in for a font URL: the family its file name starts with
 * (`Montserrat-ExtraBold.ttf` → Montserrat 800), else Open Sans — whose substitution the render reports.
 */
export function fontFor(src: string): string {
  const name = decodeURIComponent(src.split(/[?#]/)[0]!.split('/').pop() ?? '').replace(/\.[a-z0-9]+$/i, '')
  const key = familyKey(name)
  const families = [...new Set(builtinFonts.map((f) => f.family))].sort((a, b) => b.length - a.length)
  const family = families.find((f) => key.startsWith(familyKey(f))) ?? 'Open Sans'
  const rest = key.startsWith(familyKey(family)) ? key.slice(familyKey(family).length) : ''
  const weight = splitWeightName(`${family} ${rest}`).weight ?? 400
  const faces = builtinFonts.filter((f) => f.family === family)
  return faces.sort((a, b) => Math.abs(a.weight - weight) - Math.abs(b.weight - weight))[0]!.path
}

/** Preview scale: at most 512 px on the long side (Shotstack's `preview`), keeping the aspect ratio. */
export function previewOutput(output: Record<string, any> | undefined): Record<string, any> {
  const o = { ...(output ?? {}) }
  delete o.scaleTo
  // Keep the author's frame rate: `preview` alone would default it to 15.
  o.fps ??= o.resolution === 'preview' ? 15 : 25
  const size = o.size
  if (size && typeof size === 'object' && Number(size.width) > 0 && Number(size.height) > 0) {
    const k = 512 / Math.max(Number(size.width), Number(size.height))
    if (k < 1) o.size = { width: Math.max(2, Math.round((size.width * k) / 2) * 2), height: Math.max(2, Math.round((size.height * k) / 2) * 2) }
  } else if (o.resolution !== 'preview') o.resolution = 'preview'
  return o
}
