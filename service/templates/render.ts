import { placeholdersOf, type Placeholder, type Warning } from '../../core/index.js'
import { ServiceError } from '../errors.js'
import type { Principal } from '../accounts/keys.js'
import { submitJob, type SubmitDeps } from '../jobs/submit.js'
import type { Job } from '../jobs/store.js'
import { describeIssues, parseBody } from '../lib/validate.js'
import { TemplateRenderSchema, type TemplateRenderInput } from './schema.js'
import type { TemplateStore } from './store.js'

/** What a template render needs: the submission's parts and the templates. */
export type TemplateRenderDeps = SubmitDeps & { templates: TemplateStore }

/** submitJob's own options (job options such as the y axis and the API it came through), passed on unchanged. */
export type TemplateRenderOptions = Parameters<typeof submitJob>[4]

type MergeField = { find: string; replace: unknown }

/**
 * Renders one of the caller's templates (404 as `TemplateStore.get` when it is not theirs): the caller's
 * `merge` values replace the template's own by `find` (others keep their defaults), `output` fields replace
 * the template's output fields one by one, and `callback` replaces its callback. The edit that makes goes
 * through `submitJob`, the one submission path, so validation, limits, source and callback checks, the credit
 * hold and the queue are exactly a render's, and the job stores that edit (`GET /v1/render/:id?data=true`).
 * Issue paths are the edit's (`output.fps`, `callback`): the same names the caller used. Every placeholder
 * needs a value, the caller's or the template's own: a render without one is refused (`refuseMissing`).
 */
export async function renderTemplate(
  deps: TemplateRenderDeps,
  principal: Principal,
  id: string,
  input: TemplateRenderInput,
  opts?: TemplateRenderOptions,
): Promise<{ job: Job; warnings: Warning[] }> {
  const { merge, output, callback } = parseBody(TemplateRenderSchema, input)
  const { template } = await deps.templates.get(principal, id)
  const edit: Record<string, unknown> = { ...template }
  const fields = mergedFields(template.merge as MergeField[] | undefined, merge)
  refuseMissing(placeholdersOf(template), fields)
  if (fields.length) edit.merge = fields
  if (output) edit.output = { ...(template.output as Record<string, unknown> | undefined), ...output }
  if (callback !== undefined) edit.callback = callback
  return submitJob(deps, principal, 'render', edit, opts)
}

/** The template's merge list with the caller's values in place of its defaults (keys compared as the merge does: trimmed). */
function mergedFields(defaults: MergeField[] = [], given: MergeField[] = []): MergeField[] {
  const byKey = new Map(given.map((f) => [f.find.trim(), f]))
  const known = new Set(defaults.map((f) => f.find.trim()))
  return [...defaults.map((f) => byKey.get(f.find.trim()) ?? f), ...given.filter((f) => !known.has(f.find.trim()))]
}

/**
 * A 400 for each placeholder neither the caller nor the template gives a value, naming every field it feeds:
 * a template's render is the moment its values must all be there (a plain render only warns, as Shotstack).
 */
function refuseMissing(placeholders: Placeholder[], fields: MergeField[]): void {
  const given = new Set(fields.map((f) => f.find.trim()))
  const issues = placeholders
    .filter((p) => !given.has(p.find))
    .map((p) => ({ path: 'merge', message: `{{ ${p.find} }} has no value in merge; it feeds ${listed(p.fields)}` }))
  if (issues.length) throw new ServiceError('E_VALIDATION', `template render: ${describeIssues(issues)}`, { issues })
}

const listed = (items: string[]) => (items.length > 1 ? `${items.slice(0, -1).join(', ')} and ${items.at(-1)}` : items[0]!)
