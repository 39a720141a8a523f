import * as v from 'valibot'
import { int } from '../../core/index.js'
import { IMAGE_MODELS, IMAGE_SIZES, IMAGE_STYLES as STYLES, PROMPT_LIMIT, type ImageModel } from '../vocabulary.js'

export { IMAGE_MODELS, IMAGE_SIZES, PROMPT_LIMIT, type ImageModel }

/**
 * `POST /v1/ai/image` (strict: reelforge's own body). The seed's model rules are checked after the fields,
 * each issue forwarded to the field it concerns: styles per model, `negative_prompt` only for flux and
 * stable-diffusion, `steps` (20–50) only for stable-diffusion, sizes only from the table.
 */
export const ImageRequestSchema = v.pipe(
  v.strictObject({
    prompt: v.pipe(
      v.string('must be a string'),
      v.trim(),
      v.minLength(1, 'must not be empty'),
      v.maxLength(PROMPT_LIMIT, `must be at most ${PROMPT_LIMIT} characters`),
      v.check((s) => !s.includes('\u0000'), 'must not contain NUL characters'),
    ),
    model: v.optional(
      v.picklist(IMAGE_MODELS, (i) => `must be one of ${IMAGE_MODELS.join(', ')}; got ${JSON.stringify(i.input)}`),
      'flux',
    ),
    width: v.optional(int(1, 8192), 1024),
    height: v.optional(int(1, 8192), 1024),
    style: v.optional(
      v.picklist(['natural', 'vivid', 'artistic'], (i) => `must be natural, vivid or artistic; got ${JSON.stringify(i.input)}`),
      'natural',
    ),
    negative_prompt: v.optional(v.pipe(v.string(), v.maxLength(PROMPT_LIMIT, `must be at most ${PROMPT_LIMIT} characters`))),
    steps: v.optional(int()),
    seed: v.optional(int(0, 4_294_967_294)),
  }),
  v.forward(
    v.check(
      (r) => STYLES[r.model].includes(r.style),
      (i) =>
        `style "${(i.input as { style: string }).style}" is not available for ${(i.input as { model: ImageModel }).model}; use ${STYLES[(i.input as { model: ImageModel }).model].join(' or ')}`,
    ),
    ['style'],
  ),
  v.forward(
    v.check((r) => r.negative_prompt === undefined || r.model !== 'dall-e-3', 'is not supported by dall-e-3 (only flux and stable-diffusion)'),
    ['negative_prompt'],
  ),
  v.forward(
    v.check((r) => r.steps === undefined || r.model === 'stable-diffusion', 'is only supported by stable-diffusion'),
    ['steps'],
  ),
  v.forward(
    v.check(
      (r) => r.steps === undefined || (r.steps >= 20 && r.steps <= 50),
      (i) => `must be between 20 and 50, got ${(i.input as { steps: number }).steps}`,
    ),
    ['steps'],
  ),
  v.forward(
    v.check(
      (r) => IMAGE_SIZES.includes(`${r.width}x${r.height}`),
      (i) => `${(i.input as { width: number }).width}x${(i.input as { height: number }).height} is not a supported size; use one of ${IMAGE_SIZES.join(', ')}`,
    ),
    ['width'],
  ),
)
export type ImageRequestInput = v.InferOutput<typeof ImageRequestSchema>

export const BatchRequestSchema = v.strictObject({
  requests: v.pipe(v.array(v.unknown()), v.minLength(1, 'must hold at least one request'), v.maxLength(20, 'must hold at most 20 requests')),
})
