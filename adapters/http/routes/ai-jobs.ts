import type { H3Event } from 'h3'
import * as v from 'valibot'
import { AI_TASKS } from '../../../core/index.js'
import { AI_JOB_STATUSES } from '../../../service/api-types.js'
import type { Application } from '../../../service/compose.js'
import { AI_JOB_SCHEMAS } from '../../../service/ai/requests.js'
import { aiJobRecord } from '../../../service/ai/store.js'
import { readJson } from '../body.js'
import { queryParams } from '../query.js'
import { defineRoutes, type RouteSpec } from '../route.js'
import { named } from '../openapi-schemas.js'
import { ErrorBodySchema } from '../schemas.js'

export type AiJobRouteDeps = Pick<Application, 'config' | 'aiJobs' | 'aiStore'>

// Documentation schema of a job; records are built by service/ai/store.ts.
const n = v.nullable(v.number())
export const AiJobSchema = v.object({
  id: v.pipe(v.string(), v.uuid()),
  kind: v.picklist(AI_TASKS),
  status: v.picklist(AI_JOB_STATUSES),
  model: v.string(),
  provider: v.nullable(v.string()),
  url: v.nullable(v.string()),
  files: v.record(v.string(), v.string()),
  text: v.nullable(v.string()),
  words: v.nullable(v.array(v.object({ text: v.string(), start: v.number(), end: v.number() }))),
  duration: n,
  credits_used: v.number(),
  error: v.nullable(v.string()),
  created_at: v.string(),
  updated_at: v.string(),
})
named('AiJob', AiJobSchema)
// `createAiSpeechJob`, `listAiSpeechJobs`, `getAiSpeechJob`: the path alone would not say these are jobs.
type Kind = (typeof AI_TASKS)[number]
const job = (kind: Kind) => `Ai${kind.charAt(0).toUpperCase()}${kind.slice(1)}Job`
const errors = (...codes: number[]) => Object.fromEntries(codes.map((c) => [c, { description: 'error', schema: ErrorBodySchema }]))
const WHAT: Record<Kind, string> = {
  text: 'Write text (a script) from a prompt',
  speech: 'Speak text (voiceover): an audio file and the time of every word',
  transcription: 'Transcribe the speech of an audio or video URL: the words timed, SRT and WebVTT files',
  video: 'Generate a video clip from a prompt and/or an image',
  upscale: 'Upscale an image or video URL to 4K (or 1080, or ×2–4)',
}

/** `POST /v1/ai/{kind}` (202, the job runs in the background) and `GET /v1/ai/{kind}[/{id}]` for every AI task. */
export function aiJobRoutes(d: AiJobRouteDeps) {
  const id = (event: H3Event) => event.context.params?.id ?? ''
  return defineRoutes(
    AI_TASKS.flatMap((kind): RouteSpec[] => [
      {
        method: 'post',
        path: `/v1/ai/${kind}`,
        operationId: `create${job(kind)}`,
        auth: 'key',
        summary: WHAT[kind],
        description:
          'Answers 202 with the queued job at once; poll `GET` or wait for `ai.complete` / `ai.failed`. Sandbox keys use the local engines, free; live keys are charged on success from the price table.',
        body: AI_JOB_SCHEMAS[kind],
        responses: { 202: { description: 'queued', schema: AiJobSchema }, ...errors(400, 402, 413, 415, 422, 429) },
        handler: async (event, principal) => {
          const job = await d.aiJobs.submit(principal, kind, await readJson(event, d.config.limits.bodyBytes))
          event.res.status = 202
          return job
        },
      },
      {
        method: 'get',
        path: `/v1/ai/${kind}`,
        operationId: `list${job(kind)}s`,
        auth: 'key',
        summary: `This account's ${kind} jobs, newest first`,
        query: { limit: '1–200 (default 50)' },
        responses: { 200: { description: 'jobs', schema: v.object({ jobs: v.array(AiJobSchema) }) }, ...errors(400) },
        handler: async (event, principal) => ({ jobs: (await d.aiStore.list(principal, kind, queryParams(event).limit(50, 200))).map(aiJobRecord) }),
      },
      {
        method: 'get',
        path: `/v1/ai/${kind}/:id`,
        operationId: `get${job(kind)}`,
        auth: 'key',
        summary: `A ${kind} job: its status and result`,
        responses: { 200: { description: 'the job', schema: AiJobSchema }, ...errors(404) },
        handler: async (event, principal) => aiJobRecord(await d.aiStore.get(principal, kind, id(event))),
      },
    ]),
  )
}
