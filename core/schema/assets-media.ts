import * as v from 'valibot'
import { BoolLike, Color, int, num, numOrTween, oneOf, Src } from './primitives.js'

/** Shotstack's audio effects (audio `effect`, video `volumeEffect`, soundtrack `effect`). */
export const AUDIO_EFFECTS = ['none', 'fadeIn', 'fadeOut', 'fadeInFadeOut'] as const
export const AudioEffect = oneOf(AUDIO_EFFECTS)

const CropSchema = v.object({
  top: v.optional(num(0, 1)),
  bottom: v.optional(num(0, 1)),
  left: v.optional(num(0, 1)),
  right: v.optional(num(0, 1)),
})
const GEN_ASPECTS = ['1:1', '16:9', '9:16', '4:3', '3:4', '21:9', '9:21'] as const

/**
 * A media asset comes from a file or is generated: one with neither would be accepted and fail at render
 * time (Shotstack's spec requires `src`; `prompt` is reelforge's generation). Reported at `src`.
 */
type Sourced = { src?: string; prompt?: string }
const sourceOrPrompt = <T extends Sourced>() =>
  v.forward(
    v.partialCheck([['src'], ['prompt']], (a: Sourced) => !!a.src || !!a.prompt, 'is required (or give a prompt)'),
    ['src'],
  ) as unknown as v.BaseValidation<T, T, v.BaseIssue<unknown>>

/** `video`: a clip of a video file; `src` or (AI generation) `prompt`. */
export const VideoAssetSchema = v.pipe(
  v.object({
    type: v.literal('video'),
    src: v.optional(Src),
    trim: v.optional(num(0), 0),
    volume: v.optional(numOrTween(0, 1)),
    volumeEffect: v.optional(AudioEffect),
    speed: v.optional(num(0, 10)),
    crop: v.optional(CropSchema),
    chromaKey: v.optional(v.object({ color: Color, threshold: v.optional(num(0, 250)), halo: v.optional(num(0, 250)) })),
    transcode: v.optional(BoolLike),
    prompt: v.optional(v.string()),
    inputSrc: v.optional(Src),
    model: v.optional(v.string()),
    resolution: v.optional(v.string()),
    duration: v.optional(v.union([v.string(), v.number()])),
    aspectRatio: v.optional(oneOf(GEN_ASPECTS)),
    generateAudio: v.optional(BoolLike),
    seed: v.optional(v.union([v.number(), v.string()])),
  }),
  sourceOrPrompt(),
)

/** `image`: a still picture; `src` or (AI generation) `prompt`. */
export const ImageAssetSchema = v.pipe(
  v.object({
    type: v.literal('image'),
    src: v.optional(Src),
    crop: v.optional(CropSchema),
    prompt: v.optional(v.string()),
    model: v.optional(v.string()),
    resolution: v.optional(v.string()),
    aspectRatio: v.optional(oneOf(GEN_ASPECTS)),
  }),
  sourceOrPrompt(),
)

/** `audio`: a sound file mixed at the clip's time (or, with `prompt`, generated speech/music). */
export const AudioAssetSchema = v.pipe(
  v.object({
    type: v.literal('audio'),
    src: v.optional(Src),
    trim: v.optional(num(0), 0),
    volume: v.optional(numOrTween(0, 1)),
    speed: v.optional(num(0, 10)),
    effect: v.optional(AudioEffect),
    prompt: v.optional(v.string()),
    voice: v.optional(v.string()),
    language: v.optional(v.string()),
    newscaster: v.optional(BoolLike),
    model: v.optional(v.string()),
    musicLengthMs: v.optional(num(3000, 600000)),
    forceInstrumental: v.optional(BoolLike),
    compositionPlan: v.optional(v.unknown()),
  }),
  sourceOrPrompt(),
)

/** `luma`: a greyscale matte masking the content clip on its own track (black hides, white shows). */
export const LumaAssetSchema = v.object({ type: v.literal('luma'), src: Src, trim: v.optional(num(0), 0) })

/** `text-to-image` (deprecated AI form): an image generated from `prompt`. */
export const TextToImageAssetSchema = v.object({
  type: v.literal('text-to-image'),
  prompt: v.pipe(v.string(), v.minLength(1, 'must not be empty')),
  width: v.optional(int(1, 4096)),
  height: v.optional(int(1, 4096)),
  crop: v.optional(CropSchema),
})

/** `image-to-video` (deprecated AI form): rendered as the image with a slow zoom. */
export const ImageToVideoAssetSchema = v.object({
  type: v.literal('image-to-video'),
  src: Src,
  prompt: v.optional(v.string()),
  aspectRatio: v.optional(oneOf(GEN_ASPECTS)),
  speed: v.optional(num(0, 10)),
  crop: v.optional(CropSchema),
})

/** `text-to-speech` (deprecated AI form): `text` spoken by `voice`. */
export const TextToSpeechAssetSchema = v.object({
  type: v.literal('text-to-speech'),
  text: v.string(),
  voice: v.string(),
  language: v.optional(v.string()),
  newscaster: v.optional(BoolLike),
  trim: v.optional(num(0), 0),
  volume: v.optional(numOrTween(0, 1)),
  speed: v.optional(num(0, 10)),
  effect: v.optional(AudioEffect),
})
