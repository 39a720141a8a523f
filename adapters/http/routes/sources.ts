import type { H3Event } from 'h3'
import * as v from 'valibot'
import { RENDITION_STATUSES, SOURCE_STATUSES, SOURCE_TYPES } from '../../../service/api-types.js'
import type { Application } from '../../../service/compose.js'
import { ingestSource, SourceInputSchema } from '../../../service/sources/ingest.js'
import { sourceRecord } from '../../../service/sources/importer.js'
import { readJson } from '../body.js'
import { queryParams } from '../query.js'
import { defineRoutes } from '../route.js'
import { named } from '../openapi-schemas.js'
import { ErrorBodySchema } from '../schemas.js'

export type SourceRouteDeps = Pick<Application, 'config' | 'sources' | 'importer'>

// Documentation schema of a source; records are built by service/sources/store.ts.
const n = v.nullable(v.number())
const MediaFacts = { content_type: v.nullable(v.string()), bytes: n, width: n, height: n, duration: n, fps: n }
export const RenditionSchema = v.object({
  id: v.pipe(v.string(), v.uuid()),
  status: v.picklist(RENDITION_STATUSES),
  url: v.nullable(v.string()),
  transformation: v.record(v.string(), v.unknown()),
  ...MediaFacts,
  error: v.nullable(v.string()),
})
export const SourceSchema = v.object({
  id: v.pipe(v.string(), v.uuid()),
  status: v.picklist(SOURCE_STATUSES),
  url: v.nullable(v.string()),
  input_url: v.nullable(v.string()),
  filename: v.nullable(v.string()),
  type: v.nullable(v.picklist(SOURCE_TYPES)),
  ...MediaFacts,
  has_audio: v.boolean(),
  error: v.nullable(v.string()),
  renditions: v.array(RenditionSchema),
  created_at: v.string(),
  updated_at: v.string(),
})
named('Source', SourceSchema)
named('Rendition', RenditionSchema)
const errors = (...codes: number[]) => Object.fromEntries(codes.map((c) => [c, { description: 'error', schema: ErrorBodySchema }]))

/** Hosted sources: import a file from a URL, read, list and delete them (service/sources/). */
export function sourceRoutes(d: SourceRouteDeps) {
  const id = (event: H3Event) => event.context.params?.id ?? ''
  return defineRoutes([
    {
      method: 'post',
      path: '/v1/sources',
      auth: 'key',
      summary: 'Import a video, image, audio or font file from a URL into hosted storage',
      description:
        'Answers at once with the queued source. The file is fetched through the network guard within the size limit and the account quota, and must really be media (its bytes are read, not its name). `renditions` (at most 10) are new files made from a video or image source with ffmpeg — format, size or resolution × aspectRatio, fit, fps, quality — each ready or failed on its own; the source is ready once they end. `source.ready` or `source.failed` follows, to `callback` and the global webhook.',
      body: SourceInputSchema,
      responses: { 201: { description: 'queued', schema: SourceSchema }, ...errors(400, 413, 415, 422) },
      handler: async (event, principal) => {
        const source = await ingestSource(d, principal, await readJson(event, d.config.limits.bodyBytes))
        event.res.status = 201
        return sourceRecord(source)
      },
    },
    {
      method: 'get',
      path: '/v1/sources',
      auth: 'key',
      summary: "This account's sources, newest first (sandbox keys: sandbox sources only); page with `before` (a `created_at`)",
      query: { status: SOURCE_STATUSES.join(' | '), type: SOURCE_TYPES.join(' | '), limit: '1–200 (default 50)', before: 'sources created before this time' },
      responses: { 200: { description: 'sources', schema: v.object({ sources: v.array(SourceSchema), next: v.nullable(v.string()) }) }, ...errors(400) },
      handler: async (event, principal) => {
        const q = queryParams(event)
        const limit = q.limit(50, 200)
        const query = { limit, status: q.oneOf('status', SOURCE_STATUSES), type: q.oneOf('type', SOURCE_TYPES), before: q.time('before') }
        const sources = await d.sources.list(principal, query)
        return { sources: sources.map(sourceRecord), next: sources.length >= limit ? sources.at(-1)!.created_at : null }
      },
    },
    {
      method: 'get',
      path: '/v1/sources/:id',
      auth: 'key',
      summary: 'A source: its status, hosted URL, what its file is (type, size, dimensions, duration, fps, audio) and its renditions',
      responses: { 200: { description: 'the source', schema: SourceSchema }, ...errors(404) },
      handler: async (event, principal) => sourceRecord(await d.sources.get(principal, id(event))),
    },
    {
      method: 'delete',
      path: '/v1/sources/:id',
      auth: 'key',
      summary: 'Delete a source, its stored file and its renditions (renders that used it keep their output)',
      responses: { 200: { description: 'deleted', schema: v.object({ id: v.string(), deleted: v.literal(true) }) }, ...errors(404) },
      handler: async (event, principal) => {
        await d.sources.remove(principal, id(event))
        return { id: id(event), deleted: true }
      },
    },
  ])
}
