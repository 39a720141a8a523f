import { Agent as HttpAgent } from 'node:http'
import { Agent as HttpsAgent } from 'node:https'
import { addressGuard, checkUrl, type NetworkPolicy } from '../../plugins/index.js'
import { guardedLookup } from '../../plugins/lib/net/guard.js'
import { awsS3 } from '../lib/aws-s3.js'
import { publicText } from '../lib/public-text.js'
import { contentType, type Storage } from '../storage/storage.js'
import type { S3Credentials } from './integrations.js'
import type { S3Options } from './schema.js'

/** A finished render's files by storage key, as the render stored them. */
export interface RenderFiles {
  url: string
  poster?: string
  thumbnail?: string
}

/** Where each file went: object URLs, in the shape of the render's own `url`, `poster`, `thumbnail`. */
export type CopiedFiles = RenderFiles

const quiet = () => {}
const QUIET = { debug: quiet, info: quiet, warn: quiet, error: quiet }
const extOf = (key: string) => key.split('.').pop()!.toLowerCase()
const encodeKey = (key: string) => key.split('/').map(encodeURIComponent).join('/')

/**
 * Object keys as Shotstack names them: `<prefix>/<filename or render id>.<ext>`, the poster and thumbnail
 * beside it with `-poster` and `-thumb` (the extension comes from the render's format, never the filename).
 */
export function objectKeys(jobId: string, files: RenderFiles, options: Pick<S3Options, 'prefix' | 'filename'>): RenderFiles {
  const prefix = (options.prefix ?? '').replace(/^\/+|\/+$/g, '')
  const base = `${prefix ? `${prefix}/` : ''}${options.filename ?? jobId}`
  return {
    url: `${base}.${extOf(files.url)}`,
    poster: files.poster && `${base}-poster.${extOf(files.poster)}`,
    thumbnail: files.thumbnail && `${base}-thumb.${extOf(files.thumbnail)}`,
  }
}

/**
 * Copies a render's files from reelforge's storage (or any reader of keys: a Serve transfer's downloaded file)
 * into the user's bucket with the account's credentials.
 * Every connection is judged by the network guard after DNS resolution (a user's endpoint must not reach
 * private addresses unless the operator allows them). Throws an error whose message names the bucket and
 * what S3 answered; the caller records it as this destination's failure.
 */
export async function copyToS3(
  storage: Pick<Storage, 'open'>,
  files: RenderFiles,
  dest: { jobId: string; options: S3Options; credentials: S3Credentials },
  ctx: { network: NetworkPolicy; signal?: AbortSignal },
): Promise<CopiedFiles> {
  const { options, credentials } = dest
  const endpoint = (options.endpoint ?? credentials.endpoint)?.replace(/\/+$/, '')
  const region = options.region ?? credentials.region ?? 'us-east-1'
  // Literal IPs never reach the guarded DNS lookup below: the same check as at submission, once more now.
  const refused = endpoint && (await checkUrl(endpoint, ctx.network))
  if (refused) throw new Error(`endpoint ${endpoint} ${refused}`)
  const lookup = guardedLookup(addressGuard(ctx.network)) as never
  const { PutObjectCommand, S3Client } = awsS3()
  const client = new S3Client({
    region,
    endpoint,
    forcePathStyle: !!endpoint,
    credentials: { accessKeyId: credentials.accessKeyId, secretAccessKey: credentials.secretAccessKey },
    // Plain bodies (no aws-chunked trailers) work with every S3-compatible server (see s3-storage.ts).
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // Streamed bodies are not retried by the SDK; a failure is this destination's recorded error, not a log line.
    maxAttempts: 1,
    logger: QUIET,
    requestHandler: { httpAgent: new HttpAgent({ lookup }), httpsAgent: new HttpsAgent({ lookup }), connectionTimeout: 10_000, socketTimeout: 120_000 },
  })
  const keys = objectKeys(dest.jobId, files, options)
  const urlOf = (key: string) =>
    endpoint ? `${endpoint}/${options.bucket}/${encodeKey(key)}` : `https://${options.bucket}.s3.${region}.amazonaws.com/${encodeKey(key)}`
  const out: CopiedFiles = { url: '' }
  try {
    for (const kind of ['url', 'poster', 'thumbnail'] as const) {
      const from = files[kind]
      const to = keys[kind]
      if (!from || !to) continue
      const file = await storage.open(from)
      if (!file) throw new Error(`the render's ${kind === 'url' ? 'video' : kind} is no longer in reelforge's storage`)
      await client
        .send(
          new PutObjectCommand({
            Bucket: options.bucket,
            Key: to,
            Body: file.read(),
            ContentLength: file.size,
            ContentType: contentType(to),
            ACL: options.acl,
          }),
          { abortSignal: ctx.signal },
        )
        .catch((e) => {
          throw new Error(`s3://${options.bucket}/${to}: ${describe(e)}`, { cause: e })
        })
      out[kind] = urlOf(to)
    }
    return out
  } finally {
    client.destroy()
  }
}

/** What S3 (or the connection) said, for the destination's `error`: the code S3 answered and its message. */
function describe(e: unknown): string {
  if (e instanceof awsS3().S3ServiceException) {
    const status = e.$metadata?.httpStatusCode
    return `${e.name}${status ? ` (HTTP ${status})` : ''}: ${e.message || 'no message'}`
  }
  const err = e as { code?: string; message?: string }
  return publicText(`${err.code && !err.message?.includes(err.code) ? `${err.code}: ` : ''}${err.message ?? String(e)}`)
}
