import { Readable } from 'node:stream'
import type { ReadableStream as WebStream } from 'node:stream/web'
import type { H3Event } from 'h3'
import * as v from 'valibot'
import { sourceRecord } from '../../../service/sources/importer.js'
import { createUpload, receiveUpload, UploadInputSchema } from '../../../service/sources/upload.js'
import { readJson } from '../body.js'
import { queryParams } from '../query.js'
import { defineRoutes } from '../route.js'
import { ErrorBodySchema } from '../schemas.js'
import { type SourceRouteDeps, SourceSchema } from './sources.js'

const errors = (...codes: number[]) => Object.fromEntries(codes.map((c) => [c, { description: 'error', schema: ErrorBodySchema }]))

/** The request's body as a Node stream: the socket itself on Node (nothing buffered), else the web stream. */
function bodyStream(event: H3Event): Readable {
  const node = event.runtime?.node?.req as Readable | undefined
  if (node) return node
  return event.req.body ? Readable.fromWeb(event.req.body as WebStream) : Readable.from([])
}

/** Direct upload: a one-time URL for the client's bytes, and the PUT that receives them (service/sources/upload.ts). */
export function uploadRoutes(d: SourceRouteDeps) {
  return defineRoutes([
    {
      method: 'post',
      path: '/v1/upload',
      auth: 'key',
      summary: 'A signed, expiring URL to PUT a file to; it becomes a hosted source',
      description:
        "Answers `{id, url, expires_at}`: `id` is the source (`GET /v1/sources/{id}`), `url` takes one `PUT` of the file body without a key within an hour. The bytes decide what the file is; `content_type` is not trusted. With S3 storage `url` is a presigned PutObject URL to the bucket: the bucket answers the `PUT` (an empty 200), the service finds the file within seconds and imports it (sniffed, probed, within the file limit and quota), and `GET /v1/sources/{id}` or `source.ready`/`source.failed` tell how it ended. Browsers need the bucket to allow PUT from their origin (CORS); `proxy: true` asks for this service's own URL instead (the bytes then pass through it).",
      body: UploadInputSchema,
      responses: { 201: { description: 'the upload URL', schema: v.object({ id: v.string(), url: v.string(), expires_at: v.string() }) }, ...errors(400, 422) },
      handler: async (event, principal) => {
        const { source, url, expiresAt } = await createUpload(d, principal, await readJson(event, d.config.limits.bodyBytes, { optional: true }))
        event.res.status = 201
        return { id: source.id, url, expires_at: expiresAt }
      },
    },
    {
      method: 'put',
      path: '/v1/upload/:id',
      operationId: 'uploadFile',
      auth: 'none',
      summary: "An upload's bytes (the URL from POST /v1/upload is the credential)",
      query: { token: 'the one-time token of the upload URL' },
      responses: {
        200: { description: 'the source, ready or failed (why in `error`)', schema: SourceSchema },
        ...errors(403, 404, 409, 413),
      },
      handler: async (event) => {
        const length = event.req.headers.get('content-length')
        const declared = length === null ? undefined : Number(length)
        const token = queryParams(event).string('token') ?? ''
        return sourceRecord(await receiveUpload(d, event.context.params?.id ?? '', token, bodyStream(event), declared))
      },
    },
  ])
}
