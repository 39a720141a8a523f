import { registryTranscriber } from './transcribe.js'
import { memoAiRunner, registryAiRunner } from './ai-runner.js'
import type { AiRunner } from './ai.js'
import { premixSound } from './audio/premix.js'
import { randomUUID } from 'node:crypto'
import { mkdir, writeFile } from 'node:fs/promises'
import { removePartial } from './ffmpeg/run.js'
import { homedir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { RenderError, type Warning } from './errors.js'
import { createFontBook, type FontFace } from './fonts.js'
import type { FrameSink, ImageRequest, Plugin } from './plugin.js'
import { callHook, unlessAborted } from './plugin-driver.js'
import { createRegistry, type Registry } from './registry.js'
import { createPlan, type PlanReuse, type RenderPlan } from './plan/plan.js'
import { checkedImage } from './plan/plugin-answers.js'
import { openPreviewSession, type PreviewSession } from './preview/session.js'
import { renderFrames } from './render/frame-loop.js'
import { createCaptures } from './render/captures.js'
import { atCrashSite } from './render/crash-site.js'
import { SHOTSTACK_ASSET_SCHEMAS } from './schema/assets.js'
import { SHOTSTACK_ASSET_TYPES, SHOTSTACK_EFFECTS, SHOTSTACK_FILTERS, SHOTSTACK_TRANSITIONS, FITS, effectNames, transitionNames } from './schema/names.js'
import { validateEdit, type KnownNames, type ValidateOptions, type ValidEdit } from './schema/validate.js'
import type { Edit } from './schema/edit.js'

export interface CompositorOptions {
  plugins: readonly Plugin[]
  /** Built-in font faces (the title and html plugins ship some). */
  fonts?: readonly FontFace[]
  /** Family used when an edit names one that is not available. */
  fallbackFont?: string
  /** Where downloads are cached, content-addressed. Default `$REELFORGE_CACHE_DIR` or `~/.cache/reelforge`. */
  cacheDir?: string
  /** Scratch space for renders. Default the OS temp dir. */
  tmpDir?: string
  /**
   * Sign of `offset.y`: `'down'` (default) follows the seed (−1 top … +1 bottom); `'up'` follows Shotstack's
   * API (positive moves up) for edits written against Shotstack's renderer.
   */
  yAxis?: 'down' | 'up'
  /** Download limits per asset. */
  maxDownloadBytes?: number
  downloadTimeoutMs?: number
  /** Assets prepared in parallel. */
  concurrency?: number
  /**
   * How AI assets in timelines get their pixels. Default: the registered provider plugin serving the model,
   * written to the render's scratch directory. The service replaces it to rate-limit, charge and store.
   */
  generateImage?: ImageGenerator
  /** How AI assets run other tasks (video, speech). Default: the registered `ai` engines (see ai-runner.ts). */
  runAi?: AiRunner
}

/** Generates an image for a render and returns a local file path; `path` names the clip for errors. */
export type ImageGenerator = (request: ImageRequest, ctx: { path: string; signal: AbortSignal; tmpDir: string; owner?: unknown }) => Promise<string>

/** Where each stage sits on the 0..1 progress scale: fetching up to 1 %, the frames 1–99 %, the final mux after. */
const PROGRESS = { render: 0.01, frames: 0.98 }

/** Stages a render goes through, in order. */
export type RenderStage = 'fetching' | 'rendering' | 'encoding'

export interface RenderProgress {
  stage: RenderStage
  /** 0..1 over the whole render. */
  progress: number
  frame: number
  frames: number
  fps: number
  etaMs: number
}

/** A render as planned: smart timing resolved, nothing drawn yet. */
export interface PlannedRender {
  /** Seconds of output (after `output.range`). */
  duration: number
  /** Seconds the whole timeline lasts. */
  timelineDuration: number
  frames: number
  fps: number
  /** The output picture's size (`output.scaleTo` when it asks for another). */
  width: number
  height: number
}

export interface RenderOptions {
  /** Output file path. */
  out: string
  signal?: AbortSignal
  onProgress?: (p: RenderProgress) => void
  /**
   * Runs once the render is planned — sources probed, `auto`/`end`/`alias://` timing resolved — and before the
   * output opens or the first frame is drawn; awaited. A throw stops the render with that error (the service
   * holds the real price here, and refuses what the wallet cannot pay).
   */
  onPlanned?: (planned: PlannedRender) => void | Promise<void>
  /** Relative asset paths resolve against this directory (default: the working directory). */
  baseDir?: string
  /** Who the render is for, handed to `generateImage` (the service passes the job's principal). */
  owner?: unknown
  /** This render's `offset.y` sign, over the compositor's `yAxis` (a service renders edits of both conventions). */
  yAxis?: 'down' | 'up'
  /**
   * The cores this render may use when others share the machine (the pieces of a segmented render): encoders
   * and decoders size their threads to it instead of each taking every core. Default: the whole machine.
   */
  cores?: number
  /**
   * Encode on the CPU even where NVENC works. The pieces of a segmented render set it: they are joined by stream
   * copy, so they must share one encoder's stream parameters whichever machine renders each, and a GPU's NVENC
   * sessions are few (consumer cards cap them) while pieces are many.
   */
  cpuEncoder?: boolean
  /**
   * Encode for speed over file size: x264's `ultrafast` preset and AAC's fast coder, at the same CRF and bitrate.
   * For drafts whose file is looked at, not kept — a compatibility pass over many edits (`reelforge compat`) spends
   * about half its CPU in the encoder at preview size otherwise. Same frames, timing and streams; a larger file.
   * The built-in mp4 and mov (H.264) outputs honour it; a render split into segments and the service's renders
   * do not set it.
   */
  draft?: boolean
}

export interface RenderResult {
  path: string
  /** Seconds. */
  duration: number
  frames: number
  width: number
  height: number
  fps: number
  bytes: number
  renderMs: number
  /** Frames actually composited (the rest repeated a static frame, or went straight from a decoder: `direct`). */
  drawn: number
  /** Frames one opaque layer covered, made around the GPU: its pixels unchanged or scaled on the CPU (one-piece renders). */
  direct?: number
  /** Whether the file has a sound track. */
  hasAudio: boolean
  /** `output.poster`: a frame-sized JPEG beside the output. */
  poster?: string
  /** `output.thumbnail`: a scaled JPEG beside the output. */
  thumbnail?: string
  warnings: Warning[]
}

export interface Compositor {
  readonly registry: Registry
  /**
   * Validates an edit without rendering; throws `E_TIMELINE_INVALID` listing every issue. With `{ template: true }`,
   * placeholders without a value stand for any value of their field; `open` lists the fields they fill.
   */
  validate(edit: unknown, opts?: ValidateOptions): { edit: ValidEdit; warnings: Warning[]; open?: string[] }
  /** Validates and resolves an edit into a plan (fetches assets, compiles shaders). Call `plan.dispose()`. */
  plan(edit: Edit, opts?: PlanOptions): Promise<RenderPlan>
  /** Renders an edit to `opts.out`. */
  render(edit: Edit, opts: RenderOptions): Promise<RenderResult>
  /**
   * Opens a preview session on an edit — what a visual editor's playhead draws from: sources prepared once and
   * kept, decoders warm, any frame drawn as `render` draws a still of the edit at that time; `update` keeps what
   * did not change. `opts.signal` stops the opening only. Close it when done.
   */
  preview?(edit: Edit, opts?: PlanOptions): Promise<PreviewSession>
}

/** How an edit is planned: `Compositor.plan`'s and `preview`'s options. */
export type PlanOptions = { signal?: AbortSignal; baseDir?: string; owner?: unknown; yAxis?: 'down' | 'up'; cores?: number }

/**
 * Creates a compositor: a registry of plugins and the render pipeline built on it.
 * @example
 * const compositor = createCompositor({ plugins: builtinPlugins })
 * await compositor.render(edit, { out: 'out/video.mp4' })
 */
export function createCompositor(options: CompositorOptions): Compositor {
  const registry = createRegistry(options.plugins)
  const fonts = createFontBook(options.fonts ?? [], options.fallbackFont)
  const known = knownNames(registry)
  const loadOptions = (baseDir?: string) => ({
    cacheDir: options.cacheDir ?? process.env.REELFORGE_CACHE_DIR ?? join(homedir(), '.cache', 'reelforge'),
    baseDir: resolve(baseDir ?? process.cwd()),
    tmpDir: options.tmpDir,
    maxBytes: options.maxDownloadBytes ?? 1024 ** 3,
    timeoutMs: options.downloadTimeoutMs ?? 120_000,
  })

  const planWith = (input: Edit, opts: PlanOptions, reuse?: PlanReuse) => {
    const { edit, warnings } = validateEdit(input, known)
    return createPlan(edit, warnings, {
      reuse,
      registry,
      fonts: fonts.fork(),
      yAxis: opts.yAxis ?? options.yAxis ?? 'down',
      cores: opts.cores,
      load: loadOptions(opts.baseDir),
      signal: opts.signal ?? new AbortController().signal,
      concurrency: options.concurrency ?? 4,
      generateImage: (request, ctx) => (options.generateImage ?? defaultGenerator(registry))(request, { ...ctx, owner: opts.owner }),
      transcribe: registryTranscriber(registry, loadOptions().cacheDir),
      runAi: memoAiRunner(((task, ask, ctx) => (options.runAi ?? registryAiRunner(registry))(task, ask, { ...ctx, owner: opts.owner })) as AiRunner),
    })
  }

  const compositor: Compositor = {
    registry,
    validate: (edit, opts) => validateEdit(edit, known, opts),
    plan: async (input, opts = {}) => planWith(input, opts),
    preview: (input, opts = {}) =>
      openPreviewSession((edit, reuse, signal) => planWith(edit, { ...opts, signal }, reuse), input, { signal: opts.signal, tmpDir: options.tmpDir }),
    async render(input, opts) {
      const started = performance.now()
      const signal = opts.signal ?? new AbortController().signal
      if (signal.aborted) throw new RenderError('E_CANCELLED', 'render cancelled')
      const report = opts.onProgress
      report?.({ stage: 'fetching', progress: 0, frame: 0, frames: 0, fps: 0, etaMs: 0 })
      const plan = await atCrashSite({ stage: 'fetching' }, () =>
        compositor.plan(input, { signal, baseDir: opts.baseDir, owner: opts.owner, yAxis: opts.yAxis, cores: opts.cores }),
      )
      const out = resolve(opts.out)
      let sink: FrameSink | undefined
      try {
        const picture = plan.scaleTo ?? plan.frame
        await opts.onPlanned?.({
          duration: plan.duration,
          timelineDuration: plan.timelineDuration,
          frames: plan.frames,
          fps: plan.fps,
          width: picture.width,
          height: picture.height,
        })
        await mkdir(dirname(out), { recursive: true }).catch((e: NodeJS.ErrnoException) => {
          throw new RenderError(
            'E_OUTPUT_FAILED',
            `cannot make the folder ${dirname(out)} for the output: ${FOLDER_FAULTS[e.code ?? ''] ?? e.message}`,
            {},
            { cause: e },
          )
        })
        const output = plan.edit.output
        if (plan.output.takes === 'audio' && !plan.audio) {
          throw new RenderError(
            'E_OUTPUT_FAILED',
            `output.format "${plan.format}" needs sound, but the timeline has none${output.mute ? ' (output.mute is set)' : ''}`,
            { path: 'output.format' },
          )
        }
        // Everything is fetched: the render's own work begins (a sound mix first, for some edits, then the frames).
        report?.({ stage: 'rendering', progress: PROGRESS.render, frame: 0, frames: plan.frames, fps: 0, etaMs: 0 })
        // Many sounds are mixed before the frames, so the encoder holds one input however many clips have sound.
        const audio =
          plan.audio && plan.output.takes === 'video'
            ? await atCrashSite({ stage: 'encoding', path: 'output' }, () => premixSound(plan.audio!, plan.tmpDir, signal))
            : plan.audio
        // The encoder's callbacks (its process and pipe events) belong to the encoding stage.
        // The output's hooks and the frame loop are raced with the signal: a cancelled render waits on none of them.
        sink = await atCrashSite({ stage: 'encoding', path: 'output', plugin: `output:${plan.format} open` }, () =>
          unlessAborted(
            callHook(plan.output, 'open', 'output', () =>
              plan.output.open({
                path: out,
                width: plan.frame.width,
                height: plan.frame.height,
                scaleTo: plan.scaleTo,
                fps: plan.fps,
                fpsRational: plan.fpsRational,
                frames: plan.frames,
                duration: plan.duration,
                quality: output.quality,
                repeat: output.repeat,
                audio,
                signal,
                cores: opts.cores,
                cpuEncoder: opts.cpuEncoder,
                draft: opts.draft,
                pixelFormat: plan.yuv ? 'yuv420p' : 'rgba',
              }),
            ),
            signal,
            // An encoder that opens after the cancel is stopped then.
            (late) => late.abort(),
          ),
        )
        const captures = createCaptures(plan, out)
        // On PROGRESS's scale: fetching up to 1 %, the frames 1–99 % (encoded alongside), closing the file the last 1 %.
        const loop =
          plan.output.takes === 'audio'
            ? { drawn: 0, direct: 0 }
            : await atCrashSite({ stage: 'rendering' }, () =>
                renderFrames(plan, sink!, {
                  signal,
                  onFrame: captures.onFrame,
                  // One scale that follows the frames: the encoder runs alongside, so fetching and the final mux are thin.
                  onProgress: (p) =>
                    report?.({
                      stage: 'rendering',
                      progress: PROGRESS.render + PROGRESS.frames * (p.frame / p.frames),
                      frame: p.frame,
                      frames: p.frames,
                      fps: p.fps,
                      etaMs: p.etaMs,
                    }),
                }),
              )
        report?.({ stage: 'encoding', progress: PROGRESS.render + PROGRESS.frames, frame: plan.frames, frames: plan.frames, fps: 0, etaMs: 0 })
        const written = await unlessAborted(
          callHook(plan.output, 'close', 'output', () => sink!.close()),
          signal,
        )
        const stills = await captures.write()
        return {
          path: written.path,
          duration: plan.duration,
          frames: plan.output.takes === 'audio' ? 0 : plan.frames,
          width: picture.width,
          height: picture.height,
          fps: plan.fps,
          bytes: written.bytes,
          renderMs: performance.now() - started,
          drawn: loop.drawn,
          direct: loop.direct,
          hasAudio: !!plan.audio && plan.output.takes !== 'still',
          ...stills,
          warnings: plan.warnings,
        }
      } catch (e) {
        sink?.abort()
        if (!sink) await removePartial(out)
        if (signal.aborted && !(e instanceof RenderError && e.code === 'E_CANCELLED'))
          throw new RenderError('E_CANCELLED', 'render cancelled', undefined, { cause: e })
        throw e
      } finally {
        await plan.dispose()
      }
    },
  }
  return compositor
}

/** Why a folder could not be made, in words (Node's codes otherwise reach the user as EEXIST, mkdir '…'). */
const FOLDER_FAULTS: Record<string, string> = {
  EEXIST: 'a file of that name is in the way',
  ENOTDIR: 'a file of that name is in the way',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
}

/**
 * The first registered provider that serves the model (createRenderer registers the caller's own ahead of the
 * configured vendors and the sandbox generator); its bytes go to the render's scratch directory.
 */
function defaultGenerator(registry: Registry): ImageGenerator {
  return async (request, ctx) => {
    const provider = registry.list('provider').find((p) => p.models.includes(request.model))
    if (!provider)
      throw new RenderError(
        'E_PLUGIN_NOT_FOUND',
        `${ctx.path}: no image provider serves model "${request.model}"; providers: ${registry.names('provider').join(', ') || '(none)'}`,
        { path: ctx.path },
      )
    const image = await callHook(provider, 'generate', ctx.path, async () => checkedImage(await provider.generate(request, { signal: ctx.signal })))
    const file = join(ctx.tmpDir, `ai-${randomUUID()}.${image.mime === 'image/jpeg' ? 'jpg' : image.mime === 'image/webp' ? 'webp' : 'png'}`)
    await writeFile(file, image.data)
    return file
  }
}

/** Shotstack's names plus every registered plugin's. */
function knownNames(registry: Registry): KnownNames {
  const union = (a: readonly string[], b: string[]) => [...new Set([...a, ...b])]
  const assetTypes = union(SHOTSTACK_ASSET_TYPES, registry.names('asset'))
  const transitions = union(SHOTSTACK_TRANSITIONS, registry.list('transition').flatMap(transitionNames))
  // A plugin's effect takes Shotstack's speed suffixes as the built-in ones do (layers.ts splits them off).
  const effects = union(SHOTSTACK_EFFECTS, registry.list('effect').flatMap(effectNames))
  const filters = union(SHOTSTACK_FILTERS, registry.names('filter'))
  const fits = union(FITS, registry.names('fit'))
  return {
    assetSchema: (type) => registry.find('asset', type)?.schema ?? (Object.hasOwn(SHOTSTACK_ASSET_SCHEMAS, type) ? SHOTSTACK_ASSET_SCHEMAS[type] : undefined),
    assetTypes: () => assetTypes,
    transitions: () => transitions,
    effects: () => effects,
    filters: () => filters,
    fits: () => fits,
    outputs: () => registry.names('output'),
  }
}
