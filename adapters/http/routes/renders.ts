import type { H3Event } from 'h3'
import * as v from 'valibot'
import { EditSchema, outputSize, RenderError, type Compositor, type ValidEdit } from '../../../core/index.js'
import type { Billing } from '../../../service/billing/billing.js'
import type { ServiceConfig } from '../../../service/config.js'
import { ServiceError } from '../../../service/errors.js'
import type { JobEvents } from '../../../service/events.js'
import { JOB_STATUSES } from '../../../service/api-types.js'
import { toStatus, type JobStore } from '../../../service/jobs/store.js'
import type { KeyStore } from '../../../service/accounts/keys.js'
import { checkLimits } from '../../../service/jobs/limits.js'
import { checkSources, sourcePolicy, stitchPath } from '../../../service/jobs/source-policy.js'
import type { JobQueue } from '../../../service/queue/queue.js'
import { failJob } from '../../../service/jobs/settle.js'
import { StitchSchema, stitchToEdit } from '../../../service/jobs/stitch.js'
import type { RenderWorker } from '../../../service/jobs/worker.js'
import { authenticate } from '../auth.js'
import { checkTargetUrl, parseBody, readJson } from '../body.js'
import { queryParams } from '../query.js'
import { defineRoutes } from '../route.js'
import { ErrorBodySchema, IssueSchema, QueuedSchema, RenderStatusSchema } from '../schemas.js'

export interface RenderRouteDeps {
  config: ServiceConfig
  keys: KeyStore
  jobs: JobStore
  queue: JobQueue
  worker: RenderWorker
  renderer: Compositor
  billing: Billing
  events: JobEvents
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
/** Shotstack's own paths, accepted as aliases so migrating clients only change the host and the auth header. */
export const LEGACY_PREFIXES = ['/edit/v1', '/edit/stage', '/stage']
const aliases = (path: string) => LEGACY_PREFIXES.map((p) => path.replace(/^\/v1/, p))
const errors = (...codes: number[]) => Object.fromEntries(codes.map((c) => [c, { description: 'error', schema: ErrorBodySchema }]))

/**
 * Render jobs: submit (validated, checked against the limits and persisted before the 201 — a bad edit
 * stores nothing), status, cancel, and stitch.
 */
export function renderRoutes(d: RenderRouteDeps) {
  const submit = (kind: 'render' | 'stitch') => async (event: H3Event) => {
    const principal = await authenticate(event, d.keys)
    const body = await readJson(event, d.config.limits.bodyBytes)
    let request: unknown = body
    let editInput: unknown = body
    if (kind === 'stitch') {
      request = parseBody(StitchSchema, body)
      editInput = stitchToEdit(request as never)
    }
    const { edit, warnings } = d.renderer.validate(editInput)
    checkLimits(edit, d.config.limits, principal.sandbox)
    await checkSources(edit, sourcePolicy(d.config), kind === 'stitch' ? stitchPath : undefined)
    const callback = (kind === 'stitch' ? (request as { callback?: string }).callback : edit.callback) ?? null
    await checkTargetUrl('callback', callback, d.config.network)
    // The job and its credit hold commit together: without the credits (402) nothing is queued.
    const job = await d.jobs.transaction(async () => {
      const created = await d.jobs.create({ accountId: principal.accountId, keyId: principal.keyId, kind, request, callback, sandbox: principal.sandbox })
      await d.billing.hold(principal, created.id, { seconds: knownDuration(edit), ...outputSize(edit.output) })
      return created
    })
    await d.events.emit('render.queued', job)
    d.queue.notify(job.id)
    event.res.status = 201
    return { jobId: job.id, status: job.status, warnings }
  }

  const find = async (event: H3Event) => {
    const principal = await authenticate(event, d.keys)
    const id = event.context.params?.id ?? ''
    const job = UUID.test(id) ? await d.jobs.getFor(id.toLowerCase(), principal.accountId, principal.sandbox) : undefined
    // Another account's job — or, to a sandbox key, a live one — is reported exactly like a missing one.
    if (!job) throw new ServiceError('E_NOT_FOUND', `no render ${id}`)
    return { principal, job }
  }

  return defineRoutes([
    {
      method: 'post',
      path: '/v1/render',
      aliases: aliases('/v1/render'),
      summary: 'Queue a render of a Shotstack-format edit',
      description: 'The edit is validated (every issue is reported with its path), checked against the limits and stored before the answer.',
      body: EditSchema,
      responses: { 201: { description: 'queued', schema: QueuedSchema }, ...errors(400, 401, 402, 413, 415, 422) },
      handler: submit('render'),
    },
    {
      method: 'get',
      path: '/v1/render',
      summary: 'This account\'s renders, newest first (sandbox keys: sandbox renders only); page with `before` (a `created_at`)',
      query: { status: 'QUEUED | PROCESSING | COMPLETE | FAILED', limit: '1–200 (default 50)', before: 'renders created before this time' },
      responses: { 200: { description: 'renders', schema: v.object({ renders: v.array(RenderStatusSchema), next: v.nullable(v.string()) }) }, ...errors(400, 401) },
      handler: async (event) => {
        const principal = await authenticate(event, d.keys)
        const q = queryParams(event)
        const limit = q.limit(50, 200)
        const jobs = await d.jobs.list(principal.accountId, { limit, status: q.oneOf('status', JOB_STATUSES), before: q.string('before'), sandboxOnly: principal.sandbox })
        return { renders: jobs.map(toStatus), next: jobs.length === limit ? jobs.at(-1)!.createdAt : null }
      },
    },
    {
      method: 'get',
      path: '/v1/render/:id',
      aliases: aliases('/v1/render/:id'),
      summary: 'Status of a render',
      query: { data: '`true` adds `data`: the submitted edit (as Shotstack does)' },
      responses: { 200: { description: 'the job', schema: RenderStatusSchema }, ...errors(401, 404) },
      handler: async (event) => {
        const { job } = await find(event)
        return queryParams(event).flag('data') ? { ...toStatus(job), data: job.request } : toStatus(job)
      },
    },
    {
      method: 'post',
      path: '/v1/render/validate',
      summary: 'Check an edit without rendering it (nothing stored, nothing charged)',
      description: 'The same validation and limits as `POST /v1/render`: `{ valid, issues, warnings }`, each issue with its path.',
      body: EditSchema,
      responses: { 200: { description: 'the verdict', schema: v.object({ valid: v.boolean(), issues: v.array(IssueSchema), warnings: v.array(IssueSchema) }) }, ...errors(401, 413, 415) },
      handler: async (event) => {
        const principal = await authenticate(event, d.keys)
        const body = await readJson(event, d.config.limits.bodyBytes)
        try {
          const { edit, warnings } = d.renderer.validate(body)
          checkLimits(edit, d.config.limits, principal.sandbox)
          await checkSources(edit, sourcePolicy(d.config))
          return { valid: true, issues: [], warnings }
        } catch (e) {
          const issues = (e instanceof RenderError || e instanceof ServiceError) && e.data?.issues
          if (!issues) throw e
          return { valid: false, issues, warnings: [] }
        }
      },
    },
    {
      method: 'delete',
      path: '/v1/render/:id',
      aliases: aliases('/v1/render/:id'),
      summary: 'Cancel a queued or running render',
      description: 'The job ends FAILED with error "cancelled"; a running render is stopped.',
      responses: { 200: { description: 'the cancelled job', schema: RenderStatusSchema }, ...errors(401, 404, 409) },
      handler: async (event) => {
        const { principal, job } = await find(event)
        if (job.status === 'COMPLETE' || job.status === 'FAILED') throw new ServiceError('E_CONFLICT', `render ${job.id} already ended (${job.status})`)
        await d.jobs.requestCancel(job.id, principal.accountId)
        // Failed at once: claims skip it, and a worker rendering it (here, or elsewhere on its next
        // heartbeat) stops — its own completion or failure can no longer overwrite this.
        await failJob(d, job.id, null, 'cancelled', true)
        d.queue.cancel(job.id)
        return toStatus((await d.jobs.get(job.id))!)
      },
    },
    {
      method: 'post',
      path: '/v1/stitch',
      summary: 'Queue videos to be joined end to end',
      description: 'Body `{ clips: [{ src, trim?, length? }], output, callback? }`: the clips play in order (each starts when the previous ends; `length` defaults to the rest of the source after `trim`). Same job shape and status endpoint as renders.',
      body: StitchSchema,
      responses: { 201: { description: 'queued', schema: QueuedSchema }, ...errors(400, 401, 402, 413, 415, 422) },
      handler: submit('stitch'),
    },
  ])
}

/** Seconds an edit lasts as far as its numbers say (smart timing is settled at render). */
function knownDuration(edit: ValidEdit): number {
  let end = 0
  for (const t of edit.timeline.tracks) for (const c of t.clips) if (typeof c.start === 'number' && typeof c.length === 'number') end = Math.max(end, c.start + c.length)
  const range = edit.output.range
  return range?.length !== undefined ? Math.min(end, range.length) : end
}
