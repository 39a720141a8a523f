import { Transform } from 'node:stream'
import * as v from 'valibot'
import { show } from '../../core/index.js'
import type { Principal } from '../accounts/keys.js'
import type { ServiceConfig } from '../config.js'
import { ServiceError } from '../errors.js'
import { checkCallbackUrl, checkTargetUrl, parseBody } from '../lib/validate.js'
import type { SourceImporter } from './importer.js'
import { RenditionsSchema } from './rendition-schema.js'
import type { Source, SourceStore } from './store.js'

const HttpUrl = v.pipe(
  v.string(),
  v.url((i) => `must be an absolute URL, got ${show(i.input)}`),
  v.regex(/^https?:\/\//i, 'must be an http(s) URL'),
)

/** `POST /v1/sources`: where to fetch the file from and whom to tell when it is ready. */
export const SourceInputSchema = v.strictObject({ url: HttpUrl, callback: v.optional(HttpUrl), renditions: v.optional(RenditionsSchema) })
export type SourceInput = v.InferOutput<typeof SourceInputSchema>

export type IngestDeps = { config: ServiceConfig; sources: SourceStore; importer: SourceImporter }

/**
 * Accepts an import: the URL and callback pass the network guard now (a 400 naming the field, not a failed
 * import later), an account whose quota is used up is refused (422 naming the limit), and the row is queued
 * for the importer. The answer comes at once; `GET /v1/sources/{id}` and the events say how it ends.
 */
export async function ingestSource(d: IngestDeps, principal: Principal, body: unknown): Promise<Source> {
  const input = parseBody(SourceInputSchema, body)
  await checkTargetUrl('url', input.url, d.config.network)
  await checkCallbackUrl('callback', input.callback, d.config.network)
  await checkQuota(d, principal)
  const source = await d.sources.create(principal, { url: input.url, callback: input.callback, renditions: input.renditions })
  d.importer.enqueue(source.id)
  return source
}

/** Refuses new sources once an account holds its quota's worth of bytes. */
export async function checkQuota(d: Pick<IngestDeps, 'config' | 'sources'>, principal: Principal): Promise<void> {
  const used = await d.sources.usedBytes(principal.accountId)
  const quota = d.config.sources.quotaBytes
  if (used >= quota)
    throw new ServiceError(
      'E_LIMIT_EXCEEDED',
      `the account's source storage quota (${quota} bytes) is used up: ${used} bytes stored; delete sources to make room`,
      {
        limit: 'sources.quotaBytes',
      },
    )
}

/**
 * A file too large for the account, naming the setting that decided: the per-file limit
 * (`sources.maxFileBytes`, env `REELFORGE_SOURCE_MAX_BYTES`) or what is left of `sources.quotaBytes`.
 */
export const tooLarge = (room: { maxBytes: number; byQuota: boolean; left: number }) =>
  room.byQuota
    ? new ServiceError('E_PAYLOAD_TOO_LARGE', `the file is larger than what is left of the account's storage quota (${room.left} bytes)`, {
        limit: 'sources.quotaBytes',
      })
    : new ServiceError('E_PAYLOAD_TOO_LARGE', `the file is larger than the per-file limit sources.maxFileBytes (${room.maxBytes} bytes)`, {
        limit: 'sources.maxFileBytes',
      })

/** Passes a file's bytes on and fails with `tooLarge` once they pass `room.maxBytes` (counted, whatever was declared). */
export function byteCap(room: { maxBytes: number; byQuota: boolean; left: number }): Transform {
  let bytes = 0
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.byteLength
      done(bytes > room.maxBytes ? tooLarge(room) : null, chunk)
    },
  })
}
