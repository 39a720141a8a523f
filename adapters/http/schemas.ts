import * as v from 'valibot'
import {
  ClipSchema,
  EditSchema,
  MergeFieldSchema,
  OutputSchema,
  SHOTSTACK_ASSET_SCHEMAS,
  SoundtrackSchema,
  TimelineSchema,
  TrackSchema,
} from '../../core/index.js'
import { DestinationEntrySchema, HostedDestinationSchema, S3DestinationSchema } from '../../core/schema/output.js'
import { JOB_STAGES, JOB_STATUSES } from '../../service/api-types.js'
import { ImageRequestSchema } from '../../service/images/image-request.js'
import { componentRef, documentAs, named } from './openapi-schemas.js'

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
  stage: v.nullable(v.picklist(JOB_STAGES)),
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

// Their names as OpenAPI components (./openapi-schemas.ts).
named('Issue', IssueSchema)
named('Error', ErrorBodySchema)
named('QueuedRender', QueuedSchema)
named('DestinationStatus', DestinationSchema)
named('RenderStatus', RenderStatusSchema)

// The edit and its parts, defined in core/: one component each, shared by every body that holds an edit.
named('Edit', EditSchema)
named('Timeline', TimelineSchema)
named('Soundtrack', SoundtrackSchema)
named('MergeField', MergeFieldSchema)
named('Track', TrackSchema)
named('Clip', ClipSchema)
named('Output', OutputSchema)
named('ImageRequest', ImageRequestSchema)

/** Every Shotstack asset type as `<Type>Asset`, and `Asset`: one of them, chosen by `type`. */
const assetName = (type: string) => `${type.replace(/(^|-)(\w)/g, (_, _dash, c: string) => c.toUpperCase())}Asset`
for (const [type, schema] of Object.entries(SHOTSTACK_ASSET_SCHEMAS)) named(assetName(type), schema)
// The table types its schemas loosely (GenericSchema); each is an object with a literal `type`, as `variant` needs.
const AssetSchema = v.variant('type', Object.values(SHOTSTACK_ASSET_SCHEMAS) as never)
const mapping = Object.fromEntries(Object.keys(SHOTSTACK_ASSET_SCHEMAS).map((type) => [type, componentRef(assetName(type))]))
named('Asset', AssetSchema, { discriminator: { propertyName: 'type', mapping } })
// A clip's asset is validated loosely first (its plugin's schema decides): documented as the union.
documentAs(ClipSchema.entries.asset, AssetSchema)

// `output.destinations` entries pass loosely (service/destinations/schema.ts checks each at submission): documented as the union by `provider`.
named('S3Destination', S3DestinationSchema)
named('ShotstackDestination', HostedDestinationSchema)
const DestinationUnion = v.variant('provider', [S3DestinationSchema, HostedDestinationSchema])
const destinationRefs = { s3: componentRef('S3Destination'), shotstack: componentRef('ShotstackDestination') }
named('Destination', DestinationUnion, { discriminator: { propertyName: 'provider', mapping: destinationRefs } })
documentAs(DestinationEntrySchema, DestinationUnion)
