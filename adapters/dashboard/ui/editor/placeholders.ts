import { isObj, type Obj } from './edit-doc.js'

// `{{ KEY }}` merge fields as the renderer reads them (core/plan/merge.ts): whitespace inside the braces is
// ignored and a string that is only a placeholder takes its value's own type ("{{ START }}" → 5.2).
const FIELD = /\{\{\s*([^{}]+?)\s*\}\}/g
const WHOLE = /^\s*\{\{\s*([^{}]+?)\s*\}\}\s*$/

/** Each placeholder the edit uses (outside `merge` itself), with the paths of the fields it feeds. */
export function placeholders(edit: Obj): Map<string, string[]> {
  const found = new Map<string, string[]>()
  const visit = (node: unknown, path: string) => {
    if (typeof node === 'string') for (const m of node.matchAll(FIELD)) found.set(m[1]!, [...(found.get(m[1]!) ?? []), path])
    else if (Array.isArray(node)) node.forEach((item, i) => visit(item, `${path}[${i}]`))
    else if (isObj(node)) for (const [k, v] of Object.entries(node)) if (!(path === '' && k === 'merge')) visit(v, path ? `${path}.${k}` : k)
  }
  visit(edit, '')
  return found
}

/** The edit's own `merge` values (its sample values), by key. */
export function mergeValues(edit: Obj): Map<string, unknown> {
  const list = Array.isArray(edit.merge) ? edit.merge : []
  return new Map(list.flatMap((f) => (isObj(f) && typeof f.find === 'string' ? [[f.find.trim(), f.replace] as const] : [])))
}

/** A placeholder-only string with its sample value, else the value itself (times and numbers on the timeline). */
export function sampled(value: unknown, merge: Map<string, unknown>): unknown {
  const whole = typeof value === 'string' ? WHOLE.exec(value) : null
  return whole && merge.has(whole[1]!) ? merge.get(whole[1]!) : value
}

/** `edit.merge` with `key` set to `value` (added at the end when new), kept in its order otherwise. */
export function withMergeValue(edit: Obj, key: string, value: unknown): Obj {
  const list = Array.isArray(edit.merge) ? edit.merge : []
  const at = list.findIndex((f) => isObj(f) && typeof f.find === 'string' && f.find.trim() === key)
  const next = at >= 0 ? list.map((f, i) => (i === at ? { ...(f as Obj), replace: value } : f)) : [...list, { find: key, replace: value }]
  return { ...edit, merge: next }
}
