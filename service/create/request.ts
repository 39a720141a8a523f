import * as v from 'valibot'
import { int, num, show } from '../../core/index.js'
import { text, url } from '../ai/requests.js'
import { ServiceError } from '../errors.js'
import { checkObject, describeIssues } from '../lib/validate.js'
import { PROMPT_LIMIT } from '../vocabulary.js'
import * as names from './vocabulary.js'

// The body of Shotstack's `POST /create/{env}/assets`: `{ provider, options: { type, … } }`, each provider's
// options as its SDK models them (GeneratedAsset*, *Options). Strict: an unknown field is a 400 naming it.

const oneOf = (list: readonly string[]) =>
  v.picklist(
    list,
    (i) =>
      `must be one of ${list.length > 12 ? `the ${list.length} names Shotstack lists, e.g. ${list.slice(0, 4).join(', ')}` : list.join(', ')}; got ${show(i.input)}`,
  )
const colour = v.pipe(v.string('must be a string'), v.regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour such as #ffffff'))
const of64 = v.pipe(
  int(64, 2048),
  v.check(
    (n) => n % 64 === 0,
    (i) => `must be divisible by 64, got ${show(i.input)}`,
  ),
)
const prompt = text(PROMPT_LIMIT)
const typed = <T extends string, E extends v.ObjectEntries>(type: T, entries: E) => v.strictObject({ type: v.literal(type), ...entries })

/** Every provider's types, and each type's options. */
export const CREATE_OPTIONS = {
  shotstack: {
    'text-to-speech': typed('text-to-speech', {
      text: text(5000),
      voice: oneOf(names.POLLY_VOICES),
      language: v.optional(oneOf(names.POLLY_LANGUAGES), 'en-US'),
      newscaster: v.optional(v.boolean('must be true or false'), false),
    }),
    'text-to-image': typed('text-to-image', { prompt, width: int(1, 4096), height: int(1, 4096) }),
    'image-to-video': typed('image-to-video', {
      imageUrl: url,
      guidanceScale: v.optional(num(0, 10), 1.8),
      motion: v.optional(int(1, 255), 127),
    }),
    'text-generator': typed('text-generator', { prompt }),
  },
  elevenlabs: { 'text-to-speech': typed('text-to-speech', { text: text(5000), voice: oneOf(names.ELEVENLABS_VOICES) }) },
  openai: {
    'text-generator': typed('text-generator', { prompt, model: oneOf(names.OPENAI_MODELS), systemPrompt: v.optional(prompt) }),
  },
  'stability-ai': {
    'text-to-image': typed('text-to-image', {
      prompt,
      engine: v.optional(oneOf(names.STABILITY_ENGINES), 'stable-diffusion-xl-1024-v1-0'),
      width: of64,
      height: of64,
      steps: v.optional(int(10, 50), 30),
      seed: v.optional(int(0, 4_294_967_295), 0),
      cfgScale: v.optional(num(0, 35), 7),
      stylePreset: v.optional(oneOf(names.STABILITY_PRESETS)),
    }),
  },
  'd-id': { 'text-to-avatar': typed('text-to-avatar', { text: text(5000), avatar: oneOf(names.DID_AVATARS), background: v.optional(colour) }) },
  heygen: {
    'text-to-avatar': typed('text-to-avatar', {
      text: text(5000),
      avatar: oneOf(names.HEYGEN_AVATARS),
      voice: oneOf(names.HEYGEN_VOICES),
      avatarStyle: v.optional(oneOf(['normal', 'circle'])),
      background: v.optional(colour),
      ratio: v.optional(oneOf(['16:9', '9:16'])),
      test: v.optional(v.boolean('must be true or false')),
    }),
  },
} as const

type Options = typeof CREATE_OPTIONS
export type CreateProvider = keyof Options
/** A parsed request: one provider's one type, its options with Shotstack's defaults filled in. */
export type CreateRequest = {
  [P in CreateProvider]: { [T in keyof Options[P]]: { provider: P; type: T; options: v.InferOutput<Options[P][T] & v.GenericSchema> } }[keyof Options[P]]
}[CreateProvider]

const PROVIDERS = Object.keys(CREATE_OPTIONS) as CreateProvider[]
const invalid = (path: string, message: string) => new ServiceError('E_VALIDATION', `invalid request: ${path}: ${message}`, { issues: [{ path, message }] })

/** Parses the body: the provider, then its type, then the type's options — each refusal a 400 naming the field. */
export function parseCreateRequest(body: unknown): CreateRequest {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw invalid('(root)', `must be a JSON object, got ${show(body)}`)
  const { provider, options, ...rest } = body as Record<string, unknown>
  const extra = Object.keys(rest)[0]
  if (extra !== undefined) throw invalid(extra, 'is not a known field (a generated asset has provider and options)')
  if (provider === undefined) throw invalid('provider', `is required: one of ${PROVIDERS.join(', ')}`)
  if (typeof provider !== 'string' || !PROVIDERS.includes(provider as CreateProvider))
    throw invalid('provider', `must be one of ${PROVIDERS.join(', ')}; got ${show(provider)}`)
  const types = CREATE_OPTIONS[provider as CreateProvider] as Record<string, v.GenericSchema>
  if (!options || typeof options !== 'object' || Array.isArray(options)) throw invalid('options', `must be a JSON object, got ${show(options)}`)
  const type = (options as { type?: unknown }).type
  if (typeof type !== 'string' || !(type in types))
    throw invalid('options.type', `provider ${provider} offers ${Object.keys(types).join(', ')}; got ${show(type)}`)
  const parsed = checkObject(types[type]!, options, 'options')
  if (!parsed.success) throw new ServiceError('E_VALIDATION', `invalid request: ${describeIssues(parsed.issues)}`, { issues: parsed.issues })
  return { provider, type, options: parsed.output } as CreateRequest
}
