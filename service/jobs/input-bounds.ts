import type { ValidEdit } from '../../core/index.js'
import type { Limits } from '../config.js'
import { ServiceError } from '../errors.js'

// How much input one request may carry. Drawing cost grows with it — a 300,000-character title laid out for
// minutes, a merge value repeated in a thousand places — so each bound is checked before anything is queued
// or drawn, and each refusal is a 400 naming the field and the limit (limits.* in service/config.ts).

/** `{{ KEY }}` as the merge step finds it (core/plan/merge.ts). */
const PLACEHOLDER = /\{\{\s*([^{}]+?)\s*\}\}/g

/**
 * Before an edit is merged: its `merge` list, and how large the edit would grow once every placeholder is filled in
 * (counted from the placeholders in the text, so a merge bomb is refused before it is built).
 */
export function checkMergeBounds(body: unknown, limits: Limits): void {
  const merge = (body as { merge?: unknown } | null)?.merge
  if (!Array.isArray(merge)) return
  if (merge.length > limits.mergeFields) throw tooLarge('merge', `${merge.length} merge fields exceed the limit of ${limits.mergeFields}`)
  const { merge: _, ...rest } = body as Record<string, unknown>
  const text = JSON.stringify(rest)
  const uses = new Map<string, number>()
  for (const m of text.matchAll(PLACEHOLDER)) uses.set(m[1]!, (uses.get(m[1]!) ?? 0) + 1)
  let size = text.length
  for (const field of merge as { find?: unknown; replace?: unknown }[]) {
    const n = typeof field?.find === 'string' ? (uses.get(field.find.trim()) ?? 0) : 0
    if (n) size += n * (typeof field.replace === 'string' ? field.replace.length : (JSON.stringify(field.replace)?.length ?? 0))
  }
  if (size > limits.mergedChars)
    throw tooLarge('merge', `the edit would be ${size} characters once its merge fields are filled in, more than the limit of ${limits.mergedChars}`)
}

/** After validation: tracks, clips (per edit and per track), the text of every text-like asset and markup. */
export function checkInputBounds(edit: ValidEdit, limits: Limits): void {
  const tracks = edit.timeline.tracks
  if (tracks.length > limits.tracks) throw tooLarge('timeline.tracks', `${tracks.length} tracks exceed the limit of ${limits.tracks}`)
  const clips = tracks.reduce((n, t) => n + t.clips.length, 0)
  if (clips > limits.clips) throw tooLarge('timeline.tracks', `${clips} clips exceed the limit of ${limits.clips}`)
  tracks.forEach((t, ti) => {
    const at = `timeline.tracks[${ti}]`
    if (t.clips.length > limits.clipsPerTrack) throw tooLarge(`${at}.clips`, `${t.clips.length} clips exceed the limit of ${limits.clipsPerTrack} per track`)
    t.clips.forEach((c, ci) => checkAsset(c.asset as Record<string, unknown>, `${at}.clips[${ci}].asset`, limits))
  })
}

function checkAsset(a: Record<string, unknown>, path: string, limits: Limits): void {
  const html = a.type === 'html' || a.type === 'html5'
  const markup = html ? chars(a.html) + chars(a.css) : a.type === 'svg' ? chars(a.src) : 0
  const field = a.type === 'svg' ? 'src' : 'html'
  if (markup > limits.markupChars) throw tooLarge(`${path}.${field}`, `${markup} characters of markup exceed the limit of ${limits.markupChars}`)
  // Text drawn: `text` of title, text, rich-text, speech…; of html, what is left between its tags.
  const text = typeof a.text === 'string' ? a.text.length : html && typeof a.html === 'string' ? a.html.replace(/<[^>]*>/g, '').length : 0
  if (text > limits.textChars)
    throw tooLarge(`${path}.${typeof a.text === 'string' ? 'text' : 'html'}`, `${text} characters of text exceed the limit of ${limits.textChars}`)
}

const chars = (s: unknown) => (typeof s === 'string' ? s.length : 0)

const tooLarge = (path: string, message: string) => new ServiceError('E_INPUT_LIMIT', `${path}: ${message}`, { path, issues: [{ path, message }] })
