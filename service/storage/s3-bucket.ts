import type { S3Client } from '@aws-sdk/client-s3'
import type { S3Config } from '../config.js'
import { awsS3 } from '../lib/aws-s3.js'

/**
 * The bucket answers with these credentials: one HeadBucket (the permission is `s3:ListBucket`). Throws the
 * operator's reason — a missing bucket, no credentials, refused ones, an endpoint that does not answer — for
 * the start line and the readiness log (never for a client).
 */
export async function checkBucket(s3: S3Client, config: S3Config, signal?: AbortSignal): Promise<void> {
  try {
    await s3.send(new (awsS3().HeadBucketCommand)({ Bucket: config.bucket }), { abortSignal: signal })
  } catch (e) {
    throw new Error(bucketProblem(e, config))
  }
}

/** Creates the bucket (in the configured region); one that exists already and is this account's is fine. */
export async function createBucket(s3: S3Client, config: S3Config): Promise<'created' | 'exists'> {
  try {
    const region = config.region ?? 'us-east-1'
    // us-east-1 is S3's default location and must not be named as a constraint.
    const location = region === 'us-east-1' ? undefined : { LocationConstraint: region as never }
    await s3.send(new (awsS3().CreateBucketCommand)({ Bucket: config.bucket, CreateBucketConfiguration: location }))
    return 'created'
  } catch (e) {
    const name = (e as { name?: string }).name
    if (name === 'BucketAlreadyOwnedByYou' || name === 'BucketAlreadyExists') return 'exists'
    throw new Error(bucketProblem(e, config))
  }
}

/** An S3 failure in an operator's words. */
export function bucketProblem(e: unknown, config: S3Config): string {
  const error = e as { name?: string; code?: string; message?: string; $metadata?: { httpStatusCode?: number } }
  const status = error.$metadata?.httpStatusCode
  const where = config.endpoint ?? `S3 (${config.region ?? 'us-east-1'})`
  const network = error.code ?? /\b(ECONNREFUSED|ENOTFOUND|ETIMEDOUT|ECONNRESET|EAI_AGAIN)\b/.exec(error.message ?? '')?.[1]
  if (error.name === 'CredentialsProviderError' || /Could not load credentials/i.test(error.message ?? ''))
    return "no S3 credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or AWS_PROFILE, a web identity, an instance role: the AWS SDK's chain)"
  if (status === 404 || error.name === 'NotFound' || error.name === 'NoSuchBucket') return `the bucket "${config.bucket}" does not exist at ${where}`
  if (status === 403 || error.name === 'InvalidAccessKeyId' || error.name === 'SignatureDoesNotMatch' || error.name === 'AccessDenied')
    return `the credentials may not use the bucket "${config.bucket}" at ${where} (${status ?? error.name}: check the keys and s3:ListBucket, s3:GetObject, s3:PutObject, s3:DeleteObject)`
  if (network) return `cannot reach ${where} (${network})`
  if (error.name === 'AbortError') return `${where} did not answer in time`
  return `${where}: ${error.name ?? 'error'}${status ? ` ${status}` : ''}${error.message ? `: ${error.message}` : ''}`
}
