import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type * as v from 'valibot'
import type { AiJobSchema } from '../../adapters/http/routes/ai-jobs.js'
import type { ImageSchema } from '../../adapters/http/routes/ai.js'
import type { RenditionSchema, SourceSchema } from '../../adapters/http/routes/sources.js'
import type { DeliverySchema } from '../../adapters/http/routes/webhooks.js'
import type { DestinationSchema, IssueSchema, RenderStatusSchema } from '../../adapters/http/schemas.js'
import type {
  AiJobRecord,
  Delivery,
  DestinationRecord,
  ImageRecord,
  IssueRecord,
  RenderStatusRecord,
  SourceRecord,
  SourceRenditionRecord,
} from '../../service/api-types.js'

// Each /v1 record is written twice: as the TypeScript type the server builds and the dashboard reads
// (service/api-types.ts, no imports, so the browser bundle can take it), and as the valibot schema the OpenAPI
// document and the response checks come from. This file fails to compile (`npm run typecheck`, a CI check)
// when the two differ in any field, its type or its optionality.

/** True only when A and B are mutually assignable. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const same = <A, B>(equal: Same<A, B>) => equal

test('each API record type equals its schema’s output type', () => {
  const checks: true[] = [
    same<IssueRecord, v.InferOutput<typeof IssueSchema>>(true),
    same<RenderStatusRecord, v.InferOutput<typeof RenderStatusSchema>>(true),
    same<DestinationRecord, v.InferOutput<typeof DestinationSchema>>(true),
    same<ImageRecord, v.InferOutput<typeof ImageSchema>>(true),
    same<Delivery, v.InferOutput<typeof DeliverySchema>>(true),
    same<SourceRecord, v.InferOutput<typeof SourceSchema>>(true),
    same<SourceRenditionRecord, v.InferOutput<typeof RenditionSchema>>(true),
    same<AiJobRecord, v.InferOutput<typeof AiJobSchema>>(true),
  ]
  assert.is(checks.length, 8)
})

test.run()
