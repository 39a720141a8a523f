import { applyMerge } from '../../../core/index.js'
import type { Principal } from '../../../service/accounts/keys.js'
import { findRender } from '../../../service/jobs/manage.js'
import type { Job } from '../../../service/jobs/store.js'
import { submitJob } from '../../../service/jobs/submit.js'
import { probeUrl } from '../../../service/media/probe.js'
import { readJson } from '../body.js'
import { queryParams } from '../query.js'
import { json, ok, SHOTSTACK_JOB, shotstackStatus } from './envelope.js'
import { param } from './params.js'
import { requireOutput } from './strict.js'
import type { ShotstackDeps, ShotstackRoute } from './mount.js'
import { templateRoutes } from './template-routes.js'

/** Shotstack's Edit API: render, render status, templates and probe. */
export function editRoutes(d: ShotstackDeps): ShotstackRoute[] {
  return [
    {
      method: 'post',
      api: 'edit',
      path: '/render',
      handler: async (event, caller) => {
        const body = await readJson(event, d.config.limits.bodyBytes)
        requireOutput(body)
        const { job } = await submitJob(d, caller, 'render', body, SHOTSTACK_JOB)
        return ok({ message: 'Render Successfully Queued', id: job.id }, 201)
      },
    },
    {
      method: 'get',
      api: 'edit',
      path: '/render/:id',
      handler: async (event, caller) => {
        const job = await findRender(d, caller, param(event, 'id'))
        // `data` is still on by default at Shotstack (deprecated); `merged` gives the edit with its merge applied,
        // "used when data is set to true": `data=false&merged=true` (the SDK README's status call) sends none.
        const query = queryParams(event)
        const merged = query.flag('merged')
        const data = query.flag('data', true)
        return ok(renderData(job, caller, data ? (merged ? mergedEdit(job.request) : job.request) : undefined))
      },
    },
    {
      method: 'get',
      api: 'edit',
      path: '/probe/:url',
      // Shotstack's probe answer: ffprobe's JSON under `response.metadata`, `message` a lower-case "ok".
      handler: async (event) => json(200, { success: true, message: 'ok', response: { metadata: await probeUrl(d, decodeURIComponent(param(event, 'url'))) } }),
    },
    ...templateRoutes(d),
  ]
}

/** `RenderResponseData` of Shotstack's OpenAPI. */
export function renderData(job: Job, caller: Principal, data?: unknown) {
  const done = job.status === 'COMPLETE'
  return {
    id: job.id,
    owner: job.accountId,
    plan: caller.sandbox ? 'sandbox' : 'production',
    status: shotstackStatus(job.status, job.stage),
    error: job.error ?? '',
    duration: job.duration ?? undefined,
    // From submission to completion: reelforge does not keep the render's own time apart.
    renderTime: job.completedAt ? Date.parse(job.completedAt) - Date.parse(job.createdAt) : undefined,
    url: done ? job.url : undefined,
    poster: done ? job.poster : null,
    thumbnail: done ? job.thumbnail : null,
    ...(data !== undefined ? { data } : {}),
    created: job.createdAt,
    updated: job.updatedAt,
  }
}

function mergedEdit(request: unknown): unknown {
  const { merge, ...rest } = request as { merge?: { find: string; replace: unknown }[] }
  return applyMerge(rest, merge).value
}
