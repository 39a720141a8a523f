import * as v from 'valibot'
import { EditSchema } from '../../../core/index.js'
import type { Application } from '../../../service/compose.js'
import { StoryboardSchema, writeStoryboard } from '../../../service/ai/storyboard.js'
import { submitJob } from '../../../service/jobs/submit.js'
import { readJson } from '../body.js'
import { defineRoutes } from '../route.js'
import { named } from '../openapi-schemas.js'
import { ErrorBodySchema, QueuedSchema } from '../schemas.js'

export type StoryboardRouteDeps = Pick<Application, 'config' | 'aiRunner' | 'jobs' | 'queue' | 'renderer' | 'billing' | 'events' | 'integrations'>

// Documentation schema of the answer.
const StoryboardAnswerSchema = v.object({
  title: v.string(),
  scenes: v.array(v.string()),
  script: v.string(),
  stand_in: v.boolean(),
  edit: EditSchema,
  render: v.nullable(QueuedSchema),
})
named('Storyboard', StoryboardAnswerSchema)
const errors = (...codes: number[]) => Object.fromEntries(codes.map((c) => [c, { description: 'error', schema: ErrorBodySchema }]))

/** `POST /v1/ai/storyboard`: prompt → script → a narrated, captioned Shotstack edit, rendered when asked. */
export function storyboardRoutes(d: StoryboardRouteDeps) {
  return defineRoutes([
    {
      method: 'post',
      path: '/v1/ai/storyboard',
      auth: 'key',
      summary: 'Prompt to video: a script, then an edit with narration, a picture and captions per scene',
      description:
        'Writes the script now (a text job of the account) and answers with the edit: every scene lasts its narration. ' +
        'The voice and the pictures are made when it renders. With `render: true` the edit is also queued as a normal ' +
        'render (201, `render.jobId`); poll `GET /v1/render/{id}`.',
      body: StoryboardSchema,
      responses: {
        200: { description: 'the storyboard', schema: StoryboardAnswerSchema },
        201: { description: 'the storyboard, its render queued', schema: StoryboardAnswerSchema },
        ...errors(400, 402, 413, 415, 422, 429, 502, 504),
      },
      handler: async (event, principal) => {
        const { input, board } = await writeStoryboard(d.aiRunner, principal, await readJson(event, d.config.limits.bodyBytes))
        const answer = { title: board.title, scenes: board.scenes, script: board.script, stand_in: board.standIn, edit: board.edit }
        if (!input.render) return { ...answer, render: null }
        const body = input.callback ? { ...board.edit, callback: input.callback } : board.edit
        const { job, warnings } = await submitJob(d, principal, 'render', body)
        event.res.status = 201
        return { ...answer, render: { jobId: job.id, status: job.status, warnings } }
      },
    },
  ])
}
