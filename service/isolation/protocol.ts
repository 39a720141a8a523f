// The messages between the service and its render processes (`RenderProcess` ↔ `render-child.ts`): plain data,
// because they cross a process boundary over IPC.
import {
  RenderError,
  type AiAnswer,
  type AiAsk,
  type AiTask,
  type Edit,
  type ImageRequest,
  type PlannedRender,
  type PreviewState,
  type RenderProgress,
  type RenderResult,
} from '../../core/index.js'
import type { FilePolicy, NetworkPolicy } from '../../plugins/index.js'
import type { S3Config } from '../config.js'

/** What the render process is built from (plain data: it crosses a process boundary). */
export interface ChildConfig {
  cacheDir: string
  network: NetworkPolicy
  /** Local files sources may name; undefined: any (library use — stated explicitly, never by omission). */
  files: FilePolicy | undefined
  baseUrl: string
  /** Local storage's directory, so the service's own file URLs are read from disk… */
  filesDir?: string
  /** …or the object storage they are read from. */
  s3?: S3Config
  /**
   * Modules (paths or file URLs) each render process imports for plugins beyond the built-in ones, each
   * default-exporting a plugin or a list of them: plugins are code, so they cannot cross as data.
   */
  pluginModules?: string[]
  /**
   * Who makes the render's AI assets (generated images, voice-overs…): the parent (default: the server owns the
   * database, the wallet and the providers' keys), or `here`, the render process with the renderer's own providers
   * (under `reelforge worker`, which has no database).
   */
  ai?: 'parent' | 'here'
}

type ErrorShape = { code: string; message: string; data?: Record<string, unknown> }

/** An error as plain data for the other process; `fallback` is the code of anything not a RenderError. */
export const toShape = (e: unknown, fallback: string): ErrorShape =>
  e instanceof RenderError ? { code: e.code, message: e.message, data: e.data } : { code: fallback, message: e instanceof Error ? e.message : String(e) }
/** The RenderError an `ErrorShape` stands for. */
export const fromShape = (s: ErrorShape) => new RenderError(s.code as never, s.message, s.data)
export type ToChild =
  | {
      type: 'render'
      id: string
      edit: Edit
      out: string
      owner?: unknown
      baseDir?: string
      planned?: boolean
      yAxis?: 'down' | 'up'
      cores?: number
      cpuEncoder?: boolean
    }
  /** One exchange of the preview session this process holds (a process holds one at most, for its whole life). */
  | { type: 'preview'; id: string; op: PreviewOp }
  /** The answer to `planned`: go on, or stop with `error`. */
  | { type: 'planned'; id: string; error?: ErrorShape }
  | { type: 'abort'; id: string; reason: string }
  | { type: 'generated'; ask: number; path?: string; error?: ErrorShape }
  | { type: 'ai-answer'; ask: number; answer?: AiAnswer<AiTask>; error?: ErrorShape }
export type ToParent =
  | { type: 'ready' }
  | { type: 'progress'; id: string; progress: RenderProgress }
  /** The render is planned (its `onPlanned`): it waits for the answer before drawing anything. */
  | { type: 'planned'; id: string; planned: PlannedRender }
  | { type: 'done'; id: string; result: RenderResult | PreviewAnswer; retiring?: boolean }
  | { type: 'failed'; id: string; error: ErrorShape; retiring?: boolean }
  | { type: 'generate'; ask: number; request: ImageRequest; path: string; owner?: unknown }
  /** An AI task of an asset (voice-over, prompted video): run, charged and stored by the parent. */
  | { type: 'ai'; ask: number; task: AiTask; request: AiAsk<AiTask>; path: string; owner?: unknown }

/** What a preview session is asked: opened on an edit (once), given a changed edit, or asked for a frame. */
export type PreviewOp =
  | { kind: 'open'; edit: Edit; owner?: unknown; baseDir?: string; yAxis?: 'down' | 'up' }
  | { kind: 'update'; edit: Edit }
  | { kind: 'frame'; time: number }
/** A preview session's answer: its state (open, update) or a frame as PNG. */
export type PreviewAnswer = { state: PreviewState } | { png: Uint8Array }
