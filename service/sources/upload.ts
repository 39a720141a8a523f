import { createHash, randomBytes } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import * as v from 'valibot'
import type { Principal } from '../accounts/keys.js'
import { publicBaseUrl, type ServiceConfig } from '../config.js'
import { ServiceError } from '../errors.js'
import { checkCallbackUrl, parseBody } from '../lib/validate.js'
import type { SourceImporter } from './importer.js'
import { byteCap, checkQuota, tooLarge } from './ingest.js'
import { STAGED_UPLOAD } from './staged-upload.js'
import { type Source, type SourceStore, UPLOAD_EXPIRED } from './store.js'

/** `POST /v1/upload`: a name for the file (its stem is kept) and the type the client thinks it has (not trusted). */
export const UploadInputSchema = v.strictObject({
  filename: v.optional(v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(255, 'must be at most 255 characters'))),
  content_type: v.optional(v.pipe(v.string(), v.maxLength(255, 'must be at most 255 characters'))),
  callback: v.optional(v.pipe(v.string(), v.url(), v.regex(/^https?:\/\//i, 'must be an http(s) URL'))),
  // For clients that may talk to this service only (the dashboard's CSP): its own URL even on S3 storage.
  proxy: v.optional(v.boolean()),
})
/** How long an upload URL stays usable. */
export const UPLOAD_TTL_MS = 60 * 60_000

type UploadDeps = { config: ServiceConfig; sources: SourceStore; importer: SourceImporter }
const hash = (token: string) => createHash('sha256').update(token).digest('hex')

/**
 * Makes an upload URL: a source waiting for its bytes, and a one-time token (kept only as its hash) that
 * expires. The URL is the credential — the client PUTs the file there without its key, as to a presigned URL.
 * With S3 storage it is one: a presigned PutObject URL to the bucket, as long-lived (staged-upload.ts).
 */
export async function createUpload(d: UploadDeps, principal: Principal, body: unknown) {
  const input = parseBody(UploadInputSchema, body ?? {})
  // Checked now like every other callback (it skipped the network guard until its first delivery).
  await checkCallbackUrl('callback', input.callback, d.config.network)
  await checkQuota(d, principal)
  const seconds = d.config.sources.uploadTtlSeconds ?? UPLOAD_TTL_MS / 1000
  const token = randomBytes(32).toString('base64url')
  const expiresAt = new Date(Date.now() + seconds * 1000).toISOString()
  const staged = d.importer.presigns() && !input.proxy
  const source = await d.sources.create(principal, {
    url: null,
    filename: input.filename,
    callback: input.callback,
    upload: { tokenHash: staged ? STAGED_UPLOAD : hash(token), expiresAt },
  })
  const url = staged ? await d.importer.presignUpload(source.id, seconds) : `${publicBaseUrl(d.config)}/v1/upload/${source.id}?token=${token}`
  return { source, url, expiresAt }
}

/**
 * Receives the bytes of an upload: the token must match (once) and not have expired; the file streams to
 * disk within the file limit and what is left of the quota (413 past it), is sniffed and stored like an import.
 * A declared length that is too large is refused before the token is spent, so a smaller file can follow.
 */
export async function receiveUpload(d: UploadDeps, id: string, token: string, body: Readable, declared: number | undefined): Promise<Source> {
  const source = await d.sources.byId(id).catch(() => undefined)
  if (!source || !token) throw new ServiceError('E_NOT_FOUND', 'no such upload')
  const room = await d.importer.room(source.accountId)
  if (declared !== undefined && declared > room.maxBytes) throw tooLarge(room)
  if (!(await d.sources.claimUpload(id, hash(token)))) {
    if (source.error === UPLOAD_EXPIRED) throw new ServiceError('E_FORBIDDEN', UPLOAD_EXPIRED)
    if (source.status === 'queued') throw new ServiceError('E_FORBIDDEN', 'the upload token is wrong')
    throw new ServiceError('E_CONFLICT', 'this upload URL was used already')
  }
  return d.importer.inWorkDir(async (dir) => {
    const path = join(dir, 'upload')
    try {
      await pipeline(body, byteCap(room), createWriteStream(path))
    } catch (e) {
      const error = e instanceof ServiceError ? e : new ServiceError('E_BAD_REQUEST', 'the upload ended before the whole file arrived')
      await d.importer.finishUpload(source, error)
      throw error
    }
    return d.importer.finishUpload(source, path)
  })
}
