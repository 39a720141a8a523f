import * as v from 'valibot'
import { type AiRunner, RenderError, show } from '../../core/index.js'
import { type Storyboard, storyboard } from '../../plugins/lib/story/storyboard.js'
import type { Principal } from '../accounts/keys.js'
import { ServiceError } from '../errors.js'
import { parseBody } from '../lib/validate.js'
import { PROMPT_LIMIT } from '../vocabulary.js'
import { text, url } from './requests.js'

const pick = <T extends string>(options: readonly T[]) => v.picklist(options, (i) => `must be one of ${options.join(', ')}, got ${show(i.input)}`)

/** `POST /v1/ai/storyboard`: strict, like every AI body. */
export const StoryboardSchema = v.pipe(
  v.strictObject({
    prompt: text(PROMPT_LIMIT),
    duration: v.optional(
      v.pipe(v.number('must be a number'), v.minValue(3, 'must be at least 3 (seconds)'), v.maxValue(300, 'must be at most 300 (seconds)')),
      20,
    ),
    aspectRatio: v.optional(pick(['16:9', '9:16', '1:1', '4:5'] as const), '16:9'),
    voice: v.optional(v.pipe(v.string('must be a string'), v.maxLength(100, 'must be at most 100 characters'))),
    style: v.optional(text(300)),
    resolution: v.optional(pick(['preview', 'mobile', 'sd', 'hd', '1080'] as const), 'hd'),
    render: v.optional(v.boolean('must be true or false'), false),
    /** The render's callback, when `render` is true. */
    callback: v.optional(url),
  }),
  // Without a render nothing would call it back: a callback there is a slip, said rather than dropped unchecked.
  v.forward(
    v.partialCheck([['render'], ['callback']], (b) => b.render || b.callback === undefined, 'is only used with render: true'),
    ['callback'],
  ),
)
export type StoryboardInput = v.InferOutput<typeof StoryboardSchema>

/**
 * Writes a storyboard for an account: the script through the service's text engine — an AI job of the account,
 * charged when a vendor writes it, the sandbox's script for sandbox keys and for servers without a text model
 * (`stand_in` says so) — then the edit (plugins/lib/story). Rendering it is a normal render job (the route's).
 */
export async function writeStoryboard(runAi: AiRunner, p: Principal, body: unknown): Promise<{ input: StoryboardInput; board: Storyboard }> {
  const input = parseBody(StoryboardSchema, body)
  const signal = AbortSignal.timeout(120_000)
  const write = (ask: Parameters<typeof runAi<'text'>>[1]) => runAi('text', ask, { path: 'storyboard', signal, tmpDir: '', owner: p })
  try {
    return { input, board: await storyboard(input, write) }
  } catch (e) {
    // Credits (402), rate limits (429), a vendor's failure (502) or time-out (504) say so themselves; a content
    // refusal is the caller's to fix (422, as for images); an unusable script says nothing by itself.
    if (e instanceof RenderError && e.data?.moderated) throw new ServiceError('E_CONTENT_MODERATED', e.message)
    if (e instanceof ServiceError || e instanceof RenderError) throw e
    throw new ServiceError('E_LIMIT_EXCEEDED', `the script could not be used: ${(e as Error).message}`)
  }
}
