import type { Warning } from '../errors.js'
import { joinPath } from '../schema/issues.js'

/** `{{ KEY }}` (whitespace ignored, case sensitive): the only placeholder syntax, here and wherever one is looked for. */
export const FIELD = /\{\{\s*([^{}]+?)\s*\}\}/g
const WHOLE = /^\s*\{\{\s*([^{}]+?)\s*\}\}\s*$/

/** A placeholder an edit uses and the path of every field it feeds. */
export interface Placeholder {
  find: string
  fields: string[]
}

/**
 * Every `{{ KEY }}` in the edit's strings, in order of first appearance, with the fields it feeds. The edit's
 * own `merge` list is not searched: replacements are spliced in as they are, never merged again.
 */
export function placeholdersOf(edit: Record<string, unknown>): Placeholder[] {
  const found = new Map<string, string[]>()
  const visit = (node: unknown, path: string): void => {
    if (typeof node === 'string')
      for (const [, key] of node.matchAll(FIELD)) {
        const fields = found.get(key!) ?? found.set(key!, []).get(key!)!
        if (!fields.includes(path)) fields.push(path)
      }
    else if (Array.isArray(node)) node.forEach((item, i) => visit(item, joinPath(path, i)))
    else if (node && typeof node === 'object') for (const [k, v] of Object.entries(node)) visit(v, joinPath(path, k))
  }
  for (const [key, value] of Object.entries(edit)) if (key !== 'merge') visit(value, joinPath('', key))
  return [...found].map(([find, fields]) => ({ find, fields }))
}

/**
 * Applies merge fields to every string of the edit (SHOTSTACK.md §1): `{{ KEY }}` (whitespace ignored,
 * case sensitive). A string that is nothing but one placeholder takes the replacement's own type, so
 * `"start": "{{ START }}"` with `replace: 5.2` becomes the number 5.2; inside longer strings the value
 * is spliced as text. Placeholders left without a value are returned as warnings.
 */
export function applyMerge<T>(value: T, fields: ReadonlyArray<{ find: string; replace: unknown }> | undefined): { value: T; warnings: Warning[] } {
  const table = new Map((fields ?? []).map((f) => [f.find.trim(), f.replace]))
  const warnings: Warning[] = []
  const visit = (node: unknown, path: string): unknown => {
    if (typeof node === 'string') return mergeString(node, table, path, warnings)
    if (Array.isArray(node)) return node.map((item, i) => visit(item, joinPath(path, i)))
    if (node && typeof node === 'object') {
      const out: Record<string, unknown> = {}
      // A JSON key "__proto__" is an own property; plain assignment would swap the prototype instead.
      for (const [k, v] of Object.entries(node))
        Object.defineProperty(out, k, { value: visit(v, joinPath(path, k)), enumerable: true, writable: true, configurable: true })
      return out
    }
    return node
  }
  return { value: visit(value, '') as T, warnings }
}

function mergeString(s: string, table: Map<string, unknown>, path: string, warnings: Warning[]): unknown {
  if (!s.includes('{{')) return s
  const whole = WHOLE.exec(s)
  if (whole && table.has(whole[1]!)) return table.get(whole[1]!)
  return s.replace(FIELD, (match, key: string) => {
    if (!table.has(key)) {
      warnings.push({ path, message: `merge field {{ ${key} }} has no value in "merge"; left as is` })
      return match
    }
    const v = table.get(key)
    return typeof v === 'string' ? v : JSON.stringify(v)
  })
}
