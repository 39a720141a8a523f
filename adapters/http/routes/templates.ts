import type { H3Event } from 'h3'
import * as v from 'valibot'
import { EditSchema, OutputSchema } from '../../../core/index.js'
import type { Application } from '../../../service/compose.js'
import { probeUrl } from '../../../service/media/probe.js'
import { renderTemplate } from '../../../service/templates/render.js'
import { TemplateInputSchema, TemplateRenderSchema, TemplateUpdateSchema } from '../../../service/templates/schema.js'
import type { Template } from '../../../service/templates/store.js'
import { parseBody, readJson } from '../body.js'
import { queryParams } from '../query.js'
import { defineRoutes } from '../route.js'
import { named } from '../openapi-schemas.js'
import { ErrorBodySchema, QueuedSchema } from '../schemas.js'

export type TemplateRouteDeps = Pick<Application, 'config' | 'jobs' | 'queue' | 'renderer' | 'billing' | 'events' | 'templates' | 'integrations'>

// Documentation schemas. Bodies are parsed with the service's (service/templates/schema.ts), where `template`
// need only be an object: the edit is checked by the render validation, with its merge defaults applied.
const Name = v.pipe(v.string(), v.minLength(1), v.maxLength(200))
const SummarySchema = v.object({ id: v.pipe(v.string(), v.uuid()), name: v.string(), created_at: v.string(), updated_at: v.string() })
const MergeFieldUse = v.object({
  find: v.pipe(v.string(), v.description('the placeholder `{{ find }}`, as `merge[].find` names it')),
  fields: v.pipe(v.array(v.string()), v.description('the path of every field it feeds, e.g. timeline.tracks[0].clips[0].length')),
})
const TemplateSchema = v.object({ ...SummarySchema.entries, template: EditSchema, merge_fields: v.array(MergeFieldUse) })
named('TemplateSummary', SummarySchema)
named('Template', TemplateSchema)
const CreateBody = v.strictObject({ name: Name, template: EditSchema })
const UpdateBody = v.strictObject({ name: v.optional(Name), template: v.optional(EditSchema) })
const RenderBody = v.strictObject({ ...TemplateRenderSchema.entries, output: v.optional(v.partial(OutputSchema)) })
const ProbeSchema = v.object({ streams: v.array(v.record(v.string(), v.unknown())), format: v.record(v.string(), v.unknown()) })
const errors = (...codes: number[]) => Object.fromEntries(codes.map((c) => [c, { description: 'error', schema: ErrorBodySchema }]))

const summary = (t: Pick<Template, 'id' | 'name' | 'createdAt' | 'updatedAt'>) => ({ id: t.id, name: t.name, created_at: t.createdAt, updated_at: t.updatedAt })
const shown = (t: Template) => ({ ...summary(t), template: t.template, merge_fields: t.mergeFields })

/**
 * Saved templates (per account; sandbox keys see and make sandbox templates only), rendering one with merge
 * values, and probe. The logic is service/templates/ and service/media/probe.ts, shared with Shotstack's surface.
 */
export function templateRoutes(d: TemplateRouteDeps) {
  const json = (event: H3Event, optional = false) => readJson(event, d.config.limits.bodyBytes, { optional })
  const id = (event: H3Event) => event.context.params?.id ?? ''
  return defineRoutes([
    {
      method: 'post',
      path: '/v1/templates',
      auth: 'key',
      summary: 'Save a template: a name and a Shotstack edit',
      description:
        'The edit is validated as a render of it would be (its own `merge` values applied first); a placeholder without a value stands for any value of its field (numbers, enums, booleans, colours, `src`), and every other issue is reported with its path under `template`.',
      body: CreateBody,
      responses: { 201: { description: 'saved', schema: TemplateSchema }, ...errors(400, 413, 415) },
      handler: async (event, principal) => {
        const saved = await d.templates.create(principal, parseBody(TemplateInputSchema, await json(event)))
        event.res.status = 201
        return shown(saved)
      },
    },
    {
      method: 'get',
      path: '/v1/templates',
      auth: 'key',
      summary: "This account's templates, newest first (sandbox keys: sandbox templates only)",
      responses: { 200: { description: 'templates', schema: v.object({ templates: v.array(SummarySchema) }) } },
      handler: async (_event, principal) => ({ templates: (await d.templates.list(principal)).map(summary) }),
    },
    {
      method: 'get',
      path: '/v1/templates/:id',
      auth: 'key',
      summary: 'A template, with the merge fields (`{{ KEY }}`) it uses and the fields each feeds',
      responses: { 200: { description: 'the template', schema: TemplateSchema }, ...errors(404) },
      handler: async (event, principal) => shown(await d.templates.get(principal, id(event))),
    },
    {
      method: 'put',
      path: '/v1/templates/:id',
      auth: 'key',
      summary: 'Rename a template and/or replace its edit (validated as on save)',
      body: UpdateBody,
      responses: { 200: { description: 'the template', schema: TemplateSchema }, ...errors(400, 404, 413, 415) },
      handler: async (event, principal) => shown(await d.templates.update(principal, id(event), parseBody(TemplateUpdateSchema, await json(event)))),
    },
    {
      method: 'delete',
      path: '/v1/templates/:id',
      auth: 'key',
      summary: 'Delete a template (renders made from it stay)',
      responses: { 200: { description: 'deleted', schema: v.object({ id: v.string(), deleted: v.literal(true) }) }, ...errors(404) },
      handler: async (event, principal) => {
        await d.templates.remove(principal, id(event))
        return { id: id(event), deleted: true }
      },
    },
    {
      method: 'post',
      path: '/v1/templates/:id/render',
      auth: 'key',
      summary: 'Queue a render of a template',
      description:
        "`merge` values replace the template's own by `find`; `output` fields replace its output's; `callback` is the job's. Every placeholder needs a value (the caller's or the template's own): a missing one is a 400 naming it and the fields it feeds. The result is submitted as `POST /v1/render` would be: same checks, charge, job and answer.",
      body: RenderBody,
      responses: { 201: { description: 'queued', schema: QueuedSchema }, ...errors(400, 402, 404, 413, 415, 422) },
      handler: async (event, principal) => {
        const input = parseBody(TemplateRenderSchema, (await json(event, true)) ?? {})
        const { job, warnings } = await renderTemplate(d, principal, id(event), input)
        event.res.status = 201
        return { jobId: job.id, status: job.status, warnings }
      },
    },
    {
      method: 'get',
      path: '/v1/probe',
      operationId: 'probeMedia',
      auth: 'key',
      summary: "ffprobe's JSON (`streams`, `format`) of a media file at an http(s) URL",
      description:
        'The file is fetched through the same network guard as render sources (private addresses, also via redirects, are refused unless the operator allows them) and within their size and time limits.',
      query: { url: 'the http(s) URL of the file' },
      responses: { 200: { description: 'ffprobe -show_format -show_streams', schema: ProbeSchema }, ...errors(400, 422) },
      handler: async (event) => probeUrl(d, queryParams(event).string('url') ?? ''),
    },
  ])
}
