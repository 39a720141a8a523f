import type { H3Event } from 'h3'
import { ServiceError } from '../../../service/errors.js'
import type { TemplateInput, TemplateRenderInput, TemplateUpdate } from '../../../service/templates/schema.js'
import { renderTemplate } from '../../../service/templates/render.js'
import { readJson } from '../body.js'
import { ok, SHOTSTACK_JOB } from './envelope.js'
import { deleteById, param } from './params.js'
import { requireOutput } from './strict.js'
import type { ShotstackDeps, ShotstackRoute } from './mount.js'

/** Shotstack's template operations over the same store as /v1/templates (service/templates/). */
export function templateRoutes(d: ShotstackDeps): ShotstackRoute[] {
  const body = (event: H3Event) => readJson(event, d.config.limits.bodyBytes)
  return [
    {
      method: 'post',
      api: 'edit',
      path: '/templates',
      handler: async (event, caller) => {
        const input = (await body(event)) as TemplateInput
        requireOutput(input?.template, 'template.')
        const saved = await d.templates.create(caller, input)
        return ok({ message: 'Template Successfully Created', id: saved.id }, 201)
      },
    },
    {
      method: 'get',
      api: 'edit',
      path: '/templates',
      handler: async (_event, caller) => {
        const templates = (await d.templates.list(caller)).map((t) => ({ id: t.id, name: t.name, created: t.createdAt, updated: t.updatedAt }))
        return ok({ owner: caller.accountId, templates })
      },
    },
    {
      method: 'get',
      api: 'edit',
      path: '/templates/:id',
      handler: async (event, caller) => {
        const t = await d.templates.get(caller, param(event))
        return ok({ id: t.id, name: t.name, owner: caller.accountId, template: t.template })
      },
    },
    {
      method: 'put',
      api: 'edit',
      path: '/templates/:id',
      handler: async (event, caller) => {
        const input = (await body(event)) as TemplateUpdate
        requireOutput(input?.template, 'template.')
        const saved = await d.templates.update(caller, param(event), input)
        return ok({ message: 'Template Successfully Updated', id: saved.id })
      },
    },
    {
      method: 'delete',
      api: 'edit',
      path: '/templates/:id',
      handler: deleteById((caller, id) => d.templates.remove(caller, id)),
    },
    {
      method: 'post',
      api: 'edit',
      path: '/templates/render',
      // Shotstack's body is `{ id, merge }`; the rest (merge rules, output, callback) is the /v1 template render's.
      handler: async (event, caller) => {
        const { id: templateId, ...rest } = ((await body(event)) ?? {}) as { id?: unknown } & TemplateRenderInput
        if (typeof templateId !== 'string' || !templateId)
          throw new ServiceError('E_VALIDATION', 'id: is required: the id of a template', { issues: [{ path: 'id', message: 'is required' }] })
        const { job } = await renderTemplate(d, caller, templateId, rest, SHOTSTACK_JOB)
        return ok({ message: 'Render Successfully Queued', id: job.id }, 201)
      },
    },
  ]
}
