import type * as S3 from '@aws-sdk/client-s3'
import type * as Presigner from '@aws-sdk/s3-request-presigner'
import { lazyPackage } from '../../plugins/lib/lazy-package.js'

/**
 * The AWS SDK's S3 client, loaded where a bucket is used: the configured storage, an S3 destination, a transfer.
 * Its import costs every start ~0.25 CPU-s; a service on local files that delivers nowhere never pays it.
 */
export const awsS3 = lazyPackage<typeof S3>('@aws-sdk/client-s3')

/** The SDK's URL presigner (uploads straight to the bucket), with the client. */
export const presigner = lazyPackage<typeof Presigner>('@aws-sdk/s3-request-presigner')
