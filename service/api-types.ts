// The /v1 API's record shapes, with no imports: the server builds them and the dashboard's browser bundle
// reads them, so the two cannot drift apart.

export const JOB_STATUSES = ['QUEUED', 'PROCESSING', 'COMPLETE', 'FAILED'] as const
export type JobStatus = (typeof JOB_STATUSES)[number]
/**
 * Where a job is, or was when it failed: `queued` (failed before any process took it), then `fetching`
 * (downloading, probing, planning), `rendering`, `encoding`, `saving` (storing the files, sending destinations).
 */
export const JOB_STAGES = ['queued', 'fetching', 'rendering', 'encoding', 'saving'] as const
export type JobStage = (typeof JOB_STAGES)[number]

/** An issue or warning with the path of the field it concerns. */
export interface IssueRecord {
  path: string
  message: string
}

/** `GET /v1/render/{id}`. */
export interface RenderStatusRecord {
  id: string
  status: JobStatus
  stage: JobStage | null
  progress: number
  url: string | null
  poster: string | null
  thumbnail: string | null
  duration: number | null
  credits_used: number
  error: string | null
  warnings: IssueRecord[]
  /** Where `output.destinations` sent the files, one per destination in the edit's order (absent without any). */
  destinations?: DestinationRecord[]
  created_at: string
  updated_at: string
}

/** One of a render's `output.destinations` and how its copy went: a failed copy fails the destination, not the render. */
export interface DestinationRecord {
  provider: string
  status: 'pending' | 'done' | 'failed'
  /** Where the video went (the copy's object URL; reelforge's own link for the `shotstack` destination). */
  url?: string
  error?: string
}

/** A generated image as the API shows it. */
export interface ImageRecord {
  id: string
  status: 'queued' | 'running' | 'complete' | 'failed'
  url: string | null
  model: string
  provider: string | null
  width: number
  height: number
  credits_used: number
  error: string | null
  created_at: string
}

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number]

/** One webhook delivery of the log, with its payload and every attempt. */
export interface Delivery {
  id: string
  event: string
  target: 'callback' | 'global'
  url: string
  status: DeliveryStatus
  attempts: number
  retry: number
  next_attempt_at: string | null
  last_status: number | null
  last_error: string | null
  created_at: string
  updated_at: string
  delivered_at: string | null
  payload: unknown
  attempt_log: { attempt: number; at: string; status: number | null; error: string | null; duration_ms: number }[]
}

export const SOURCE_STATUSES = ['queued', 'importing', 'ready', 'failed'] as const
export const SOURCE_TYPES = ['video', 'image', 'audio', 'font'] as const

/** What ffprobe and the stored file say of a hosted file (null until known). */
export interface MediaFacts {
  content_type: string | null
  bytes: number | null
  width: number | null
  height: number | null
  duration: number | null
  fps: number | null
}

/** A hosted source (`GET /v1/sources/{id}`): its `url` works as `src` in any timeline once `ready`. */
export interface SourceRecord extends MediaFacts {
  id: string
  status: (typeof SOURCE_STATUSES)[number]
  /** The hosted file (null until ready). */
  url: string | null
  /** Where it was imported from (null for uploads). */
  input_url: string | null
  /** The name an upload was given (`POST /v1/upload {filename}`); null for imports. */
  filename: string | null
  type: (typeof SOURCE_TYPES)[number] | null
  has_audio: boolean
  error: string | null
  /** The new files made from it (`renditions` of the request), in the order asked. */
  renditions: SourceRenditionRecord[]
  created_at: string
  updated_at: string
}

export const RENDITION_STATUSES = ['queued', 'processing', 'ready', 'failed'] as const

/** One rendition of a source (Shotstack's `outputs.renditions`): a file made from it, ready or failed on its own. */
export interface SourceRenditionRecord extends MediaFacts {
  id: string
  status: (typeof RENDITION_STATUSES)[number]
  /** The hosted file (null until ready). */
  url: string | null
  /** What was asked for, as validated: format, size, resolution, aspectRatio, fit, quality, fps, … */
  transformation: Record<string, unknown>
  error: string | null
}

export const AI_JOB_STATUSES = ['queued', 'processing', 'complete', 'failed'] as const

/** An AI job (`GET /v1/ai/{kind}/{id}`): text, speech, transcription, video or upscale. */
export interface AiJobRecord {
  id: string
  kind: 'text' | 'speech' | 'transcription' | 'video' | 'upscale'
  status: (typeof AI_JOB_STATUSES)[number]
  model: string
  /** The engine that made it (`openai`, `elevenlabs`, `espeak`, `sandbox`, …); null until it ran. */
  provider: string | null
  /** The result file (audio, video, image); null for text and until complete. */
  url: string | null
  /** More result files by name (a transcription's `srt` and `vtt`). */
  files: Record<string, string>
  /** The written text (text) or the transcript (transcription). */
  text: string | null
  /** Timed words (speech, transcription). */
  words: Array<{ text: string; start: number; end: number }> | null
  /** Seconds of the result (speech, video). */
  duration: number | null
  credits_used: number
  error: string | null
  created_at: string
  updated_at: string
}
