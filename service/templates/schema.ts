import * as v from 'valibot'
import { show } from '../../core/index.js'

// What a template request may hold, shared by every surface that saves or renders templates. The edit itself
// is only required to be an object here: it is checked on save by the render validation (merge applied first,
// as for a render), which a structural schema here could not do — `"length": "{{ LENGTH }}"` is valid.

const Name = v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(200, 'must be at most 200 characters'))
const Edit = v.custom<Record<string, unknown>>(
  (x) => !!x && typeof x === 'object' && !Array.isArray(x),
  (i) => `must be a Shotstack edit (a JSON object), got ${show(i.input)}`,
)

/** A template as saved: a name and a full Shotstack edit (timeline, output, optional merge defaults). */
export const TemplateInputSchema = v.strictObject({ name: Name, template: Edit })
export type TemplateInput = v.InferOutput<typeof TemplateInputSchema>

/** A change: either field or both (neither is a 400). */
export const TemplateUpdateSchema = v.pipe(
  v.strictObject({ name: v.optional(Name), template: v.optional(Edit) }),
  v.check((u) => u.name !== undefined || u.template !== undefined, 'give `name`, `template` or both'),
)
export type TemplateUpdate = v.InferOutput<typeof TemplateUpdateSchema>

/** A render of a saved template: merge values over its own, output fields over its output, a callback. */
export const TemplateRenderSchema = v.strictObject({
  merge: v.optional(v.array(v.strictObject({ find: v.pipe(v.string(), v.minLength(1, 'must not be empty')), replace: v.unknown() }))),
  output: v.optional(Edit),
  callback: v.optional(
    v.pipe(
      v.string(),
      v.url((i) => `must be an absolute URL, got ${show(i.input)}`),
    ),
  ),
})
export type TemplateRenderInput = v.InferOutput<typeof TemplateRenderSchema>

// The placeholder syntax of core/plan/merge.ts (`{{ KEY }}`, whitespace ignored, case sensitive).
const FIELD = /\{\{\s*([^{}]+?)\s*\}\}/g

/**
 * The merge fields a template uses: every `{{ KEY }}` in its strings, in order of first appearance. Its own
 * `merge` list is not searched — replacements are spliced in as they are, never merged again.
 */
export function mergeFields(template: Record<string, unknown>): string[] {
  const found = new Set<string>()
  const visit = (node: unknown): void => {
    if (typeof node === 'string') for (const m of node.matchAll(FIELD)) found.add(m[1]!)
    else if (Array.isArray(node)) node.forEach(visit)
    else if (node && typeof node === 'object') Object.values(node).forEach(visit)
  }
  for (const [key, value] of Object.entries(template)) if (key !== 'merge') visit(value)
  return [...found]
}
