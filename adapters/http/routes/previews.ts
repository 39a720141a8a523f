import type { H3Event } from 'h3'
import * as v from 'valibot'
import { EditSchema } from '../../../core/index.js'
import type { Application } from '../../../service/compose.js'
import { readJson } from '../body.js'
import { named } from '../openapi-schemas.js'
import { queryParams } from '../query.js'
import { defineRoutes } from '../route.js'
import { ErrorBodySchema, IssueSchema } from '../schemas.js'

export type PreviewRouteDeps = Pick<Application, 'config' | 'previews' | 'stopping'>

// Documentation schema of a session; records are built by service/previews/previews.ts.
const PreviewSchema = v.object({
  id: v.pipe(v.string(), v.uuid()),
  revision: v.number(),
  duration: v.number(),
  fps: v.number(),
  frames: v.number(),
  width: v.number(),
  height: v.number(),
  warnings: v.array(IssueSchema),
  reused: v.number(),
  prepared: v.number(),
  idle_timeout: v.number(),
})
named('Preview', PreviewSchema)
const errors = (...codes: number[]) => Object.fromEntries(codes.map((c) => [c, { description: 'error', schema: ErrorBodySchema }]))
const png = { description: 'the frame (`x-preview-revision`: the edit it was drawn from)', content: 'image/png' }
const EditBody = v.looseObject({ ...EditSchema.entries })

/** Preview sessions: an edit kept ready for a visual editor to scrub (service/previews/). */
export function previewRoutes(d: PreviewRouteDeps) {
  const id = (event: H3Event) => event.context.params?.id ?? ''
  // Work tied to a request stops when its client goes away or the server stops (read the signal first: it starts listening).
  const gone = (event: H3Event) => AbortSignal.any([event.req.signal, d.stopping])
  const answer = (frame: { png: Buffer; revision: number }) =>
    new Response(new Uint8Array(frame.png), {
      headers: { 'content-type': 'image/png', 'cache-control': 'no-store', 'x-preview-revision': String(frame.revision) },
    })
  const body = (event: H3Event) => readJson(event, d.config.limits.bodyBytes)

  return defineRoutes([
    {
      method: 'post',
      path: '/v1/previews',
      auth: 'key',
      summary: 'Open a preview session on an edit: any frame of it, fast enough to scrub',
      description:
        'The edit (`timeline`, `output`, `merge`) is checked as `POST /v1/render/frame` checks it, planned and its sources prepared in a ' +
        'render process kept for the session, so frames need no planning: each is `POST /v1/render/frame`’s frame for the same edit and ' +
        'time, pixel for pixel. Frames and edits count against the frame preview rate limit; each request has `limits.frameSeconds`. ' +
        `A session ends after \`idle_timeout\` seconds without a request (${d.config.limits.previewIdleSeconds} here) or when deleted; ` +
        `a key may hold ${d.config.limits.previewsPerKey} and the server ${d.config.limits.previews} (429 with Retry-After beyond). ` +
        'Sessions live in this server process: behind a load balancer, route a session’s requests to the server that opened it.',
      body: EditBody,
      responses: { 201: { description: 'the session', schema: PreviewSchema }, ...errors(400, 413, 415, 422, 429) },
      handler: async (event, principal) => {
        const signal = gone(event)
        const info = await d.previews.create(principal, await body(event), signal)
        event.res.status = 201
        return info
      },
    },
    {
      method: 'get',
      path: '/v1/previews/:id',
      auth: 'key',
      summary: 'A preview session: its edit’s duration, frames and picture size, and its revision',
      responses: { 200: { description: 'the session', schema: PreviewSchema }, ...errors(404) },
      handler: (event, principal) => d.previews.get(principal, id(event)),
    },
    {
      method: 'put',
      path: '/v1/previews/:id',
      auth: 'key',
      summary: 'Give a preview session a changed edit: only what changed is prepared again',
      description:
        'Checked as on `POST`. Clips whose asset, box and length did not change keep what was prepared for them — a moved or re-timed ' +
        'video clip keeps its decoder. `reused` and `prepared` count the clips; `revision` grows by one. A refused edit leaves the session as it was.',
      body: EditBody,
      responses: { 200: { description: 'the session', schema: PreviewSchema }, ...errors(400, 404, 413, 415, 422, 429) },
      handler: async (event, principal) => {
        const signal = gone(event)
        return await d.previews.update(principal, id(event), await body(event), signal)
      },
    },
    {
      method: 'get',
      path: '/v1/previews/:id/frame',
      auth: 'key',
      summary: 'The frame of a preview session at `t` seconds, as PNG',
      query: { t: 'seconds into the timeline (required; past the end: the last frame)' },
      responses: { 200: png, ...errors(400, 404, 422, 429) },
      handler: async (event, principal) => {
        const signal = gone(event)
        return answer(await d.previews.frame(principal, id(event), { time: queryParams(event).seconds('t') }, signal))
      },
    },
    {
      method: 'post',
      path: '/v1/previews/:id/frame',
      auth: 'key',
      summary: 'The frame of a preview session at `time` seconds, as PNG',
      body: v.object({ time: v.number() }),
      responses: { 200: png, ...errors(400, 404, 413, 415, 422, 429) },
      handler: async (event, principal) => {
        const signal = gone(event)
        return answer(await d.previews.frame(principal, id(event), await body(event), signal))
      },
    },
    {
      method: 'delete',
      path: '/v1/previews/:id',
      auth: 'key',
      summary: 'End a preview session now (its render process and decoders end)',
      responses: { 200: { description: 'ended', schema: v.object({ id: v.string(), deleted: v.literal(true) }) }, ...errors(404) },
      handler: async (event, principal) => {
        await d.previews.remove(principal, id(event))
        return { id: id(event), deleted: true }
      },
    },
  ])
}
