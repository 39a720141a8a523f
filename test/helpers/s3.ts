import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3'
import S3rver from 's3rver'
import type { S3Config } from '../../service/config.js'
import { tempDir } from './media.js'

/**
 * s3rver, an S3-compatible server from npm, on loopback with one bucket (`config.bucket`) and any `buckets`
 * more: the real AWS SDK client talks to it.
 */
export async function startS3(opts: { buckets?: string[] } = {}): Promise<{ config: S3Config; close(): Promise<void> }> {
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: tempDir('reelforge-s3-'),
    configureBuckets: ['reelforge-test', ...(opts.buckets ?? [])].map((name) => ({ name, configs: [] })),
  })
  const { port } = await server.run()
  return {
    config: {
      bucket: 'reelforge-test',
      endpoint: `http://127.0.0.1:${port}`,
      region: 'us-east-1',
      prefix: 'renders/',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
    },
    close: () => server.close(),
  }
}

/**
 * The environment that puts a `reelforge serve` or `worker` process on this bucket: the `REELFORGE_S3_*` settings
 * and s3rver's credentials through the AWS SDK's chain, as an operator sets them.
 */
export const s3Env = (config: S3Config): Record<string, string> => ({
  REELFORGE_S3_BUCKET: config.bucket,
  REELFORGE_S3_ENDPOINT: config.endpoint!,
  REELFORGE_S3_PREFIX: config.prefix ?? '',
  AWS_ACCESS_KEY_ID: config.accessKeyId!,
  AWS_SECRET_ACCESS_KEY: config.secretAccessKey!,
  AWS_REGION: config.region ?? 'us-east-1',
})

/** Reads an object's bytes from s3rver with the real AWS SDK, as the bucket's owner would. */
export function objectReader(config: S3Config): (bucket: string, key: string) => Promise<Buffer> {
  const client = new S3Client({
    region: config.region,
    endpoint: config.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: config.accessKeyId!, secretAccessKey: config.secretAccessKey! },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  })
  return async (bucket, key) => Buffer.from(await (await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }))).Body!.transformToByteArray())
}
