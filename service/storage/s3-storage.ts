import { createReadStream } from 'node:fs'
import { rm, stat } from 'node:fs/promises'
import { PassThrough, type Readable } from 'node:stream'
import type { S3Client } from '@aws-sdk/client-s3'
import type { S3Config } from '../config.js'
import { awsS3, presigner } from '../lib/aws-s3.js'
import { checkBucket, createBucket } from './s3-bucket.js'
import { logger } from '../log.js'
import { storageCall } from './storage-retry.js'
import { contentType, STORAGE_KEY, type Storage } from './storage.js'

const log = logger('storage')

/**
 * The SDK's own warnings, in this service's log. Without a logger it prints "An error was encountered in a
 * non-retryable streaming request." for every failed upload try, and with one it also logs every failed
 * command (with its input) as an error: `storageCall` tries again, and its watch says once that storage is down.
 */
const SDK_LOG = {
  debug: () => {},
  info: () => {},
  warn: (...parts: unknown[]) => void (String(parts[0]).includes('non-retryable streaming request') || log.warn(...parts)),
  error: () => {},
}

/**
 * Files in a bucket under `<prefix><job id>/<name>`. The service proxies them at `/v1/files/…` (byte ranges
 * become ranged GETs), so clients never need bucket credentials and links do not expire. Every call rides
 * out a storage outage (`storageCall`): an upload is sent again from the same local file, kept until it is in.
 */
export class S3Storage implements Storage {
  private readonly s3: S3Client

  constructor(private readonly config: S3Config) {
    this.s3 = new (awsS3().S3Client)({
      region: config.region ?? 'us-east-1',
      endpoint: config.endpoint,
      forcePathStyle: !!config.endpoint,
      // The SDK's default streamed upload is aws-chunked with trailing checksums, which many S3-compatible
      // servers store verbatim (chunk headers inside the file); plain bodies work everywhere.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      credentials: config.accessKeyId && config.secretAccessKey ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } : undefined,
      logger: SDK_LOG,
    })
  }

  private objectKey(key: string): string {
    if (!STORAGE_KEY.test(key)) throw new Error(`invalid storage key ${key}`)
    return `${this.config.prefix ?? ''}${key}`
  }

  async put(key: string, file: string): Promise<string> {
    const { PutObjectCommand } = awsS3()
    const { size } = await stat(file)
    // A fresh stream each try: a failed send used up the last one.
    await storageCall(() =>
      this.s3.send(
        new PutObjectCommand({
          Bucket: this.config.bucket,
          Key: this.objectKey(key),
          Body: createReadStream(file),
          ContentLength: size,
          ContentType: contentType(key),
        }),
      ),
    )
    await rm(file, { force: true })
    return key
  }

  async open(key: string) {
    if (!STORAGE_KEY.test(key)) return undefined
    const { GetObjectCommand, HeadObjectCommand } = awsS3()
    const Key = this.objectKey(key)
    const head = await storageCall(() =>
      this.s3.send(new HeadObjectCommand({ Bucket: this.config.bucket, Key })).catch((e) => {
        if (e?.$metadata?.httpStatusCode === 404 || e?.name === 'NotFound' || e?.name === 'NoSuchKey') return undefined
        throw e
      }),
    )
    if (!head) return undefined
    return {
      size: head.ContentLength ?? 0,
      mtime: head.LastModified ?? new Date(0),
      // The reader is handed out at once; the ranged GET streams into it.
      read: (range?: { start: number; end: number }): Readable => {
        const out = new PassThrough()
        storageCall(() =>
          this.s3.send(new GetObjectCommand({ Bucket: this.config.bucket, Key, Range: range ? `bytes=${range.start}-${range.end}` : undefined })),
        ).then(
          (r) => (r.Body as Readable).pipe(out),
          (e) => out.destroy(e),
        )
        return out
      },
    }
  }

  /**
   * A presigned PutObject URL for `key`, valid `seconds`: the client sends the bytes to the bucket itself. No
   * content type is signed (the client may send any), and no checksum (the client's config asks for none).
   */
  presignPut(key: string, seconds: number): Promise<string> {
    return presigner().getSignedUrl(this.s3, new (awsS3().PutObjectCommand)({ Bucket: this.config.bucket, Key: this.objectKey(key) }), { expiresIn: seconds })
  }

  check(signal?: AbortSignal): Promise<void> {
    return checkBucket(this.s3, this.config, signal)
  }

  /** Creates the bucket when it is missing (`reelforge check --create-bucket`). */
  createBucket(): Promise<'created' | 'exists'> {
    return createBucket(this.s3, this.config)
  }

  localPath(): undefined {
    return undefined
  }

  async remove(key: string): Promise<void> {
    const Key = this.objectKey(key)
    await storageCall(() => this.s3.send(new (awsS3().DeleteObjectCommand)({ Bucket: this.config.bucket, Key })))
  }
}
