import type { H3Event } from 'h3'
import * as v from 'valibot'
import { EditSchema } from '../../../core/index.js'
import type { Application } from '../../../service/compose.js'
import type { Principal } from '../../../service/accounts/keys.js'
import { JOB_STATUSES } from '../../../service/api-types.js'
import { renderFrame } from '../../../service/jobs/frame.js'
import { cancelRender, findRender } from '../../../service/jobs/manage.js'
import { renderEvents } from '../../../service/jobs/watch.js'
import { eventStream } from '../event-stream.js'
import { toStatus, type JobKind } from '../../../service/jobs/store.js'
import { StitchSchema } from '../../../service/jobs/stitch.js'
import { dryRun, submitJob } from '../../../service/jobs/submit.js'
import { readJson } from '../body.js'
import { queryParams } from '../query.js'
import { defineRoutes } from '../route.js'
import { ErrorBodySchema, IssueSchema, QueuedSchema, RenderStatusSchema } from '../schemas.js'

export type RenderRouteDeps = Pick<
  Application,
  'config' | 'jobs' | 'queue' | 'jobRunner' | 'renderer' | 'billing' | 'events' | 'integrations' | 'limiter' | 'stopping'
>

/**
 * Shotstack's own paths, served with /v1's shapes and Bearer auth so a client only changes the host and the
 * auth header. With `--shotstack` they speak Shotstack's real protocol instead (adapters/http/shotstack/).
 */
export const LEGACY_PREFIXES = ['/edit/v1', '/edit/stage', '/stage']
const legacyAliases = (path: string) => LEGACY_PREFIXES.map((p) => path.replace(/^\/v1/, p))
const errors = (...codes: number[]) => Object.fromEntries(codes.map((c) => [c, { description: 'error', schema: ErrorBodySchema }]))

/**
 * Render jobs: submit (validated, checked against the limits and persisted before the 201 — a bad edit
 * stores nothing), status, cancel, and stitch.
 */
export function renderRoutes(d: RenderRouteDeps) {
  // Parse, call the service, shape the answer: what a submission checks and stores is service/jobs/submit.ts.
  const submit = (kind: JobKind) => async (event: H3Event, principal: Principal) => {
    const { job, warnings } = await submitJob(d, principal, kind, await readJson(event, d.config.limits.bodyBytes))
    event.res.status = 201
    return { jobId: job.id, status: job.status, warnings }
  }
  const id = (event: H3Event) => event.context.params?.id ?? ''
  const aliases = (path: string) => (d.config.shotstack ? [] : legacyAliases(path))

  return defineRoutes([
    {
      method: 'post',
      path: '/v1/render',
      aliases: aliases('/v1/render'),
      auth: 'key',
      summary: 'Queue a render of a Shotstack-format edit',
      description: 'The edit is validated (every issue is reported with its path), checked against the limits and stored before the answer.',
      body: EditSchema,
      responses: { 201: { description: 'queued', schema: QueuedSchema }, ...errors(400, 402, 413, 415, 422) },
      handler: submit('render'),
    },
    {
      method: 'get',
      path: '/v1/render',
      auth: 'key',
      summary: "This account's renders, newest first (sandbox keys: sandbox renders only); page with `before` (a `created_at`)",
      query: { status: 'QUEUED | PROCESSING | COMPLETE | FAILED', limit: '1–200 (default 50)', before: 'renders created before this time' },
      responses: { 200: { description: 'renders', schema: v.object({ renders: v.array(RenderStatusSchema), next: v.nullable(v.string()) }) }, ...errors(400) },
      handler: async (event, principal) => {
        const q = queryParams(event)
        const limit = q.limit(50, 200)
        const jobs = await d.jobs.list(principal.accountId, {
          limit,
          status: q.oneOf('status', JOB_STATUSES),
          before: q.time('before'),
          sandboxOnly: principal.sandbox,
        })
        return { renders: jobs.map(toStatus), next: jobs.length >= limit ? jobs.at(-1)!.createdAt : null }
      },
    },
    {
      method: 'get',
      path: '/v1/render/:id',
      aliases: aliases('/v1/render/:id'),
      auth: 'key',
      summary: 'Status of a render',
      query: { data: '`true` adds `data`: the submitted edit (as Shotstack does)' },
      responses: { 200: { description: 'the job', schema: RenderStatusSchema }, ...errors(404) },
      handler: async (event, principal) => {
        const job = await findRender(d, principal, id(event))
        return queryParams(event).flag('data') ? { ...toStatus(job), data: job.request } : toStatus(job)
      },
    },
    {
      method: 'get',
      path: '/v1/render/:id/events',
      auth: 'key',
      summary: 'Follow a render live (Server-Sent Events)',
      description:
        '`text/event-stream`: an `update` event with the render record now and at each change of status, stage or ' +
        'progress (to the percent), then a `done` event with the final record (COMPLETE or FAILED), and the stream ends. ' +
        'A comment line every 15 s keeps proxies from closing a quiet stream.',
      // Text, not one JSON body: generated clients must not parse it as JSON; each `data:` line is a RenderStatus.
      responses: { 200: { description: 'the events (each `data:` is a RenderStatus record)', content: 'text/event-stream' }, ...errors(404) },
      handler: async (event, principal) => {
        await findRender(d, principal, id(event)) // a 404 before the stream opens
        return eventStream(renderEvents(d, principal, id(event), event.req.signal))
      },
    },
    {
      method: 'post',
      path: '/v1/render/frame',
      auth: 'key',
      summary: 'One frame of an edit as PNG (nothing stored, nothing charged)',
      description:
        'The edit (`timeline`, `output`, `merge`) is checked as `POST /v1/render` would, then the frame at `time` (seconds, ' +
        'default 0) is drawn at the output size and answered as `image/png`. Rate-limited per key.',
      body: v.looseObject({ ...EditSchema.entries, time: v.optional(v.number()) }),
      responses: { 200: { description: 'the frame', content: 'image/png' }, ...errors(400, 413, 415, 422, 429) },
      handler: async (event, principal) => {
        // The frame stops when its client goes away or the server stops (read the signal first: it starts listening).
        const gone = AbortSignal.any([event.req.signal, d.stopping])
        const png = await renderFrame(d, principal, await readJson(event, d.config.limits.bodyBytes), gone)
        return new Response(new Uint8Array(png), { headers: { 'content-type': 'image/png', 'cache-control': 'no-store' } })
      },
    },
    {
      method: 'post',
      path: '/v1/render/validate',
      auth: 'key',
      summary: 'Check an edit without rendering it (nothing stored, nothing charged)',
      description: 'The same validation and limits as `POST /v1/render`: `{ valid, issues, warnings }`, each issue with its path.',
      body: EditSchema,
      responses: {
        200: { description: 'the verdict', schema: v.object({ valid: v.boolean(), issues: v.array(IssueSchema), warnings: v.array(IssueSchema) }) },
        ...errors(413, 415),
      },
      handler: async (event, principal) => dryRun(d, principal, await readJson(event, d.config.limits.bodyBytes)),
    },
    {
      method: 'delete',
      path: '/v1/render/:id',
      aliases: aliases('/v1/render/:id'),
      auth: 'key',
      summary: 'Cancel a queued or running render',
      description: 'The job ends FAILED with error "cancelled"; a running render is stopped.',
      responses: { 200: { description: 'the cancelled job', schema: RenderStatusSchema }, ...errors(404, 409) },
      handler: async (event, principal) => toStatus(await cancelRender(d, principal, id(event))),
    },
    {
      method: 'post',
      path: '/v1/stitch',
      auth: 'key',
      summary: 'Queue videos to be joined end to end',
      description:
        'Body `{ clips: [{ src, trim?, length? }], output, callback? }`: the clips play in order (each starts when the previous ends; `length` defaults to the rest of the source after `trim`). Same job shape and status endpoint as renders.',
      body: StitchSchema,
      responses: { 201: { description: 'queued', schema: QueuedSchema }, ...errors(400, 402, 413, 415, 422) },
      handler: submit('stitch'),
    },
  ])
}
