import * as v from 'valibot'
import { int, show } from '../../core/index.js'
import { PROMPT_LIMIT } from '../vocabulary.js'

// The bodies of `POST /v1/ai/{kind}`: strict (an unknown field is a 400 naming it), every rule a message
// that says what is allowed. `model` is optional everywhere: the service picks the kind's default.

export const text = (max: number) =>
  v.pipe(
    v.string('must be a string'),
    v.trim(),
    v.minLength(1, 'must not be empty'),
    v.maxLength(max, `must be at most ${max} characters`),
    v.check((s) => !s.includes('\u0000'), 'must not contain NUL characters'),
  )
export const url = v.pipe(
  v.string('must be a string'),
  v.url((i) => `must be an absolute URL, got ${show(i.input)}`),
  v.regex(/^https?:\/\//i, 'must be an http(s) URL'),
)
const model = v.optional(v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty'), v.maxLength(100, 'must be at most 100 characters')))
const callback = v.optional(url)
const ASPECTS = ['16:9', '9:16', '1:1', '4:5', '4:3'] as const

export const TextJobSchema = v.strictObject({
  prompt: text(PROMPT_LIMIT),
  system: v.optional(text(PROMPT_LIMIT)),
  max_tokens: v.optional(int(1, 4000)),
  model,
  callback,
})

export const SpeechJobSchema = v.strictObject({
  text: text(5000),
  voice: v.optional(v.pipe(v.string('must be a string'), v.maxLength(100, 'must be at most 100 characters'))),
  speed: v.optional(v.pipe(v.number('must be a number'), v.minValue(0.25, 'must be at least 0.25'), v.maxValue(4, 'must be at most 4'))),
  format: v.optional(
    v.picklist(['mp3', 'wav'], (i) => `must be mp3 or wav, got ${show(i.input)}`),
    'mp3',
  ),
  model,
  callback,
})

export const TranscriptionJobSchema = v.strictObject({
  src: url,
  language: v.optional(v.pipe(v.string('must be a string'), v.regex(/^[a-z]{2}(-[A-Z]{2})?$/, 'must be a language code such as en or pt-BR'))),
  model,
  callback,
})

export const VideoJobSchema = v.pipe(
  v.strictObject({
    prompt: v.optional(text(PROMPT_LIMIT)),
    image: v.optional(url),
    duration: v.optional(v.pipe(v.number('must be a number'), v.minValue(1, 'must be at least 1'), v.maxValue(30, 'must be at most 30')), 5),
    aspectRatio: v.optional(
      v.picklist(ASPECTS, (i) => `must be one of ${ASPECTS.join(', ')}, got ${show(i.input)}`),
      '16:9',
    ),
    resolution: v.optional(
      v.picklist(['sd', 'hd', '1080'], (i) => `must be sd, hd or 1080, got ${show(i.input)}`),
      'hd',
    ),
    model,
    callback,
  }),
  v.forward(
    v.check((r) => r.prompt !== undefined || r.image !== undefined, 'give a prompt, an image or both'),
    ['prompt'],
  ),
)

export const UpscaleJobSchema = v.pipe(
  v.strictObject({
    src: url,
    target: v.optional(v.picklist(['4k', '1080'], (i) => `must be 4k or 1080, got ${show(i.input)}`)),
    scale: v.optional(v.picklist([2, 3, 4], (i) => `must be 2, 3 or 4, got ${show(i.input)}`)),
    model,
    callback,
  }),
  v.forward(
    v.check((r) => !(r.target && r.scale), 'give target or scale, not both'),
    ['scale'],
  ),
)

/** Each kind's body schema. */
export const AI_JOB_SCHEMAS = {
  text: TextJobSchema,
  speech: SpeechJobSchema,
  transcription: TranscriptionJobSchema,
  video: VideoJobSchema,
  upscale: UpscaleJobSchema,
} as const
export type AiJobInput = { [K in keyof typeof AI_JOB_SCHEMAS]: v.InferOutput<(typeof AI_JOB_SCHEMAS)[K]> }

/** Frame sizes of AI video by resolution and aspect ratio (even sides, as encoders want). */
export function videoSize(resolution: 'sd' | 'hd' | '1080', aspect: (typeof ASPECTS)[number]): { width: number; height: number } {
  const long = { sd: 1024, hd: 1280, '1080': 1920 }[resolution]
  const [w, h] = aspect.split(':').map(Number) as [number, number]
  const even = (n: number) => Math.round(n / 2) * 2
  return w >= h ? { width: long, height: even((long * h) / w) } : { width: even((long * w) / h), height: long }
}
