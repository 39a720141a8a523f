import * as v from 'valibot'
import { JOB_STATUSES } from '../../service/api-types.js'

/** Response bodies, as valibot schemas (documented in the OpenAPI document). */
export const IssueSchema = v.object({ path: v.string(), message: v.string() })

export const ErrorBodySchema = v.object({
  error: v.object({ code: v.string(), message: v.string(), issues: v.optional(v.array(IssueSchema)) }),
})

export const QueuedSchema = v.object({ jobId: v.pipe(v.string(), v.uuid()), status: v.literal('QUEUED'), warnings: v.array(IssueSchema) })

export const DestinationSchema = v.object({
  provider: v.string(),
  status: v.picklist(['pending', 'done', 'failed']),
  url: v.optional(v.string()),
  error: v.optional(v.string()),
})

export const RenderStatusSchema = v.object({
  id: v.pipe(v.string(), v.uuid()),
  status: v.picklist(JOB_STATUSES),
  stage: v.nullable(v.picklist(['fetching', 'rendering', 'encoding', 'saving'])),
  progress: v.pipe(v.number(), v.minValue(0), v.maxValue(1)),
  url: v.nullable(v.string()),
  poster: v.nullable(v.string()),
  thumbnail: v.nullable(v.string()),
  duration: v.nullable(v.number()),
  credits_used: v.number(),
  error: v.nullable(v.string()),
  warnings: v.array(IssueSchema),
  /** Present when the edit names `output.destinations`: one per destination, in order. */
  destinations: v.optional(v.array(DestinationSchema)),
  created_at: v.string(),
  updated_at: v.string(),
})
