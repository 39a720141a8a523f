// The AI tasks beside image generation (issue 21): what each asks of a provider and what it gets back.
// Providers of any task are `ai` plugins: one vendor's wire API, or a free local engine, per file.

/** A word and when it is said, in seconds from the start of the audio. */
export interface TimedWord {
  text: string
  start: number
  end: number
}

/** `text` (script writing): a prompt answered with text. */
export interface TextRequest {
  prompt: string
  system?: string
  maxTokens?: number
  /** Public model name (`gpt-4o-mini`, a local server's model, …). */
  model: string
}
export interface TextResult {
  text: string
}

/** `speech` (voiceover): text spoken, with when each word is said. */
export interface SpeechRequest {
  text: string
  voice?: string
  /** BCP-47 language of the text (`en-GB`, `de`), for engines that choose a voice by it. */
  language?: string
  model: string
  /** 0.25–4, 1 = the voice's own pace. */
  speed?: number
  format: 'mp3' | 'wav'
}
export interface SpeechResult {
  /** A local file holding the audio (in the `workDir` the caller gave). */
  path: string
  mime: string
  duration: number
  words: TimedWord[]
}

/** `transcription` (automatic subtitles): the words of a local audio or video file, timed. */
export interface TranscriptionRequest {
  /** A local file: the caller downloaded it through the network guard. */
  path: string
  language?: string
  model: string
}
export interface TranscriptionResult {
  text: string
  words: TimedWord[]
  language?: string
}

/** `video` (AI video generation): a clip from a prompt and/or a first image. */
export interface VideoRequest {
  prompt?: string
  /** A local image file to start from. */
  image?: string
  duration: number
  width: number
  height: number
  model: string
}
export interface VideoResult {
  /** A local mp4 file. */
  path: string
  duration: number
}

/** `upscale` (4K upscaling): a local image or video made exactly `width`×`height`. */
export interface UpscaleRequest {
  path: string
  width: number
  height: number
  model: string
}
export interface UpscaleResult {
  path: string
  mime: string
}

/**
 * `avatar` (a talking presenter): a vendor's stock presenter (D-ID's `jack`, HeyGen's `Angela`) speaking
 * `text`, as a video with its voice. Shotstack's Create API asks for it; /v1 has no route of its own for it.
 */
export interface AvatarRequest {
  text: string
  /** The vendor's presenter, by name or id. */
  avatar: string
  /** The vendor's voice, by name or id; none: the presenter's own. */
  voice?: string
  /** Background colour, `#rrggbb`. */
  background?: string
  /** `circle` crops the presenter into a circle on the background (HeyGen). */
  style?: 'normal' | 'circle'
  aspectRatio?: '16:9' | '9:16'
  /** A free, watermarked test render where the vendor offers one (HeyGen's `test`). */
  test?: boolean
  model: string
}
export interface AvatarResult {
  /** A local mp4 file with the voice. */
  path: string
  duration: number
}

/** Each task's request and result. */
export interface AiTasks {
  text: [TextRequest, TextResult]
  speech: [SpeechRequest, SpeechResult]
  transcription: [TranscriptionRequest, TranscriptionResult]
  video: [VideoRequest, VideoResult]
  upscale: [UpscaleRequest, UpscaleResult]
  avatar: [AvatarRequest, AvatarResult]
}
export type AiTask = keyof AiTasks
/** The tasks `/v1/ai/{kind}` serves (avatars are made through Shotstack's Create API only). */
export const AI_TASKS = ['text', 'speech', 'transcription', 'video', 'upscale'] as const satisfies readonly AiTask[]

/** What a provider call gets besides its request. */
export interface AiRunContext {
  signal: AbortSignal
  /** A scratch folder of the caller's, where result files go (the caller stores and removes them). */
  workDir: string
}

/** What a render's AI asset asks of a task: its request, the model optional (the runner chooses one). */
export type AiAsk<T extends AiTask> = Omit<AiTasks[T][0], 'model'> & { model?: string }
/** A runner's answer: the task's result, and whether a free stand-in (not a real model) made it. */
export type AiAnswer<T extends AiTask> = AiTasks[T][1] & { standIn: boolean }
/**
 * How a render's AI assets (`video` with a prompt, `image-to-video`, `text-to-speech`) run a task. Result files
 * must outlive the call (the default runner writes them to the render's `tmpDir`); `owner` is the render's.
 */
export type AiRunner = <T extends AiTask>(
  task: T,
  ask: AiAsk<T>,
  ctx: { path: string; signal: AbortSignal; tmpDir: string; owner?: unknown },
) => Promise<AiAnswer<T>>
