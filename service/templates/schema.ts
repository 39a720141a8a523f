import * as v from 'valibot'
import { show } from '../../core/index.js'

// What a template request may hold, shared by every surface that saves or renders templates. The edit itself
// is only required to be an object here: it is checked on save by the render validation in its template mode
// (placeholders without a value stand for any value of their field), which a structural schema here could not
// do — `"length": "{{ LENGTH }}"` is valid.

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
