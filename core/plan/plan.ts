import type { Transcriber } from '../transcribe.js'
import type { AiRunner } from '../ai.js'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { RenderError, type Warning } from '../errors.js'
import { callHook, codeError, unlessAborted } from '../plugin-driver.js'
import type { FontBook } from '../fonts.js'
import { buildAudioMix, type Placement } from '../audio/graph.js'
import { probe } from '../ffmpeg/probe.js'
import type { AudioMix, ImageRequest, OutputPlugin, PreparedAsset, Size } from '../plugin.js'
import type { Registry } from '../registry.js'
import { atCrashSite } from '../render/crash-site.js'
import { destroyGLContext } from '../render/gl-context.js'
import type { Gpu } from '../render/gpu.js'
import { glOpened, openGpu } from '../render/lazy-gpu.js'
import { lazyPainter } from '../render/lazy-painter.js'
import { createPainter, type Painter } from '../render/painter.js'
import { framePacker } from '../render/frame-packer.js'
import type { YuvPacker } from '../render/yuv-pack.js'
import type { Format } from '../schema/output.js'
import type { ValidEdit } from '../schema/validate.js'
import { parseColor } from './color.js'
import { loadTimelineFonts } from './fonts.js'
import { buildLayer, type LayerContext, type LayerPlan } from './layers.js'
import { createLoad, type LoadOptions } from './load.js'
import { planContext, prepareKey } from './prepare-key.js'
import { checkedPrepared } from './plugin-answers.js'
import { fpsRational, outputFps, outputSize, scaleToSize } from './output-size.js'
import { resolveTiming } from './timing.js'

/** A render, fully resolved: every plugin looked up, every asset prepared, every shader compiled. */
export interface RenderPlan {
  readonly edit: ValidEdit
  readonly warnings: Warning[]
  /** Composited frame size. */
  readonly frame: Size
  /** Size of the output picture when `output.scaleTo` asks for another. */
  readonly scaleTo?: Size
  readonly fps: number
  readonly fpsRational: string
  /** Seconds the timeline lasts. */
  readonly timelineDuration: number
  /** First timeline frame written (`output.range.start`). */
  readonly firstFrame: number
  /** Frames written. */
  readonly frames: number
  /** Seconds of output (`frames / fps`). */
  readonly duration: number
  readonly format: Format
  readonly output: OutputPlugin
  /** Layers in draw order (bottom first). */
  readonly layers: LayerPlan[]
  /** Every sound on the timeline (clips and soundtrack), before `mute`. */
  readonly sounds: Placement[]
  /** The audio graph for the output, absent when silent or muted. */
  readonly audio?: AudioMix
  readonly gpu: Gpu
  readonly painter: Painter
  /** Frames read as I420 (packed on the GPU or in WebAssembly: frame-packer.ts), else undefined: RGBA. */
  readonly yuv?: YuvPacker
  readonly tmpDir: string
  dispose(): Promise<void>
}

export interface PlanContext {
  registry: Registry
  fonts: FontBook
  yAxis: 'down' | 'up'
  /** `RenderOptions.cores`, for the assets' decoders. */
  cores?: number
  load: LoadOptions
  signal: AbortSignal
  /** Parallel `prepare` calls (downloads, probes). */
  concurrency: number
  generateImage: (request: ImageRequest, ctx: { path: string; signal: AbortSignal; tmpDir: string }) => Promise<string>
  /** The words spoken in a local media file (captions of a clip's sound); undefined without an engine. */
  transcribe: Transcriber
  /** AI tasks of assets (prompted video, voice-overs); memoised per render by the caller. */
  runAi: AiRunner
  /**
   * A preview session's: the scratch directory, GL context and prepared assets it keeps from plan to plan. The
   * plan borrows them (its `dispose` leaves them be); `prepare` answers a clip whose key it has seen with what it
   * prepared then, replaying the remarks it made through `warn`.
   */
  reuse?: PlanReuse
}

/** What a plan borrows from a preview session (see `PlanContext.reuse`). */
export interface PlanReuse {
  tmpDir: string
  gpu(frame: Size): Promise<Gpu>
  /** The painter for this background and these filters (its programs compiled once per session, not per plan). */
  painter(key: string, make: () => Painter): Painter
  prepare(key: string, run: (warn: (message: string) => void) => Promise<PreparedAsset>, warn: (message: string) => void): Promise<PreparedAsset>
}

/**
 * Turns a validated edit into a RenderPlan (cold, once per render):
 * 1. output format, size and rate; 2. custom fonts; 3. prepare every asset (fetch, probe); 4. smart timing;
 * 5. soundtrack, range and the audio graph; 6. the GL context; 7. layers (fit, tracks, transitions,
 * effects, filters); 8. the painter with its filter shaders.
 */
export async function createPlan(edit: ValidEdit, warnings: Warning[], ctx: PlanContext): Promise<RenderPlan> {
  const { registry, signal } = ctx
  // 1. Output.
  const output = edit.output
  const frame = outputSize(output)
  const fps = outputFps(output)
  const format = output.format
  const outputPlugin = registry.get('output', format, 'output.format')
  const scaleTo = scaleToSize(output)

  const reuse = ctx.reuse
  const tmpDir = reuse?.tmpDir ?? (await mkdtemp(join(ctx.load.tmpDir ?? tmpdir(), 'reelforge-')))
  const prepared: PreparedAsset[] = []
  let gpu: Gpu | undefined
  let painter: Painter | undefined
  let yuv: YuvPacker | undefined
  const dispose = async () => {
    yuv?.dispose()
    if (reuse) return // the session's to keep
    painter?.dispose()
    for (const asset of prepared) asset?.dispose?.()
    if (gpu && glOpened(gpu)) destroyGLContext(gpu.gl)
    await rm(tmpDir, { recursive: true, force: true })
  }
  try {
    const load = createLoad(registry, ctx.load, signal)
    // 2. Fonts the edit brings.
    const fonts = ctx.fonts
    // What an image's `model` may name: every registered provider's models (a plugin's own included).
    const imageModels = ctx.registry.list('provider').flatMap((p) => p.models)
    await loadTimelineFonts(edit.timeline.fonts, fonts, load)

    // 3. Prepare every asset, a few at a time.
    const clips = edit.timeline.tracks.flatMap((track, t) => track.clips.map((clip, c) => ({ clip, t, c, path: `timeline.tracks[${t}].clips[${c}]` })))
    const aliases = new Map(clips.filter(({ clip }) => clip.alias).map(({ clip }) => [clip.alias!, clip]))
    const context = reuse && planContext(edit, frame, fps, ctx.yAxis, ctx.cores)
    await forEachLimited(clips, ctx.concurrency, async ({ clip, path }, i) => {
      const plugin = registry.get('asset', clip.asset.type, `${path}.asset.type`)
      const src = typeof clip.asset.src === 'string' && !clip.asset.src.trimStart().startsWith('<') ? clip.asset.src : undefined
      const remark = (message: string) => warnings.push({ path: `${path}.asset`, message })
      // Whatever the plugin starts here (downloads, probes) reports an uncaught failure as this clip's.
      // Raced with the signal: a cancelled render does not wait on a prepare that never answers.
      const run = (warn: (message: string) => void) =>
        atCrashSite({ stage: 'fetching', path: `${path}.asset`, plugin: `asset:${plugin.name} prepare`, src }, () =>
          unlessAborted(
            callHook(plugin, 'prepare', `${path}.asset`, () =>
              plugin.prepare(clip.asset, {
                path,
                frame: { ...frame, fps },
                box: clip.width || clip.height ? { width: clip.width ?? frame.width, height: clip.height ?? frame.height } : undefined,
                signal,
                load: (src) => load(src, `${path}.asset`),
                warn,
                fonts,
                tmpDir,
                yAxis: ctx.yAxis,
                cores: ctx.cores,
                generateImage: (request) => ctx.generateImage(request, { path: `${path}.asset`, signal, tmpDir }),
                imageModels,
                transcribe: (file) => ctx.transcribe(file, { path: `${path}.asset`, signal, tmpDir }),
                runAi: (task, ask) => ctx.runAi(task, ask, { path: `${path}.asset`, signal, tmpDir }),
                length: typeof clip.length === 'number' ? clip.length : undefined,
                alias: (name) => {
                  const target = aliases.get(name)
                  if (!target) return undefined
                  // Where the aliased clip starts relative to this one; smart starts resolve later, so they count as together.
                  const offset = typeof target.start === 'number' && typeof clip.start === 'number' ? target.start - clip.start : 0
                  return { asset: target.asset, offset }
                },
              }),
            ),
            signal,
            // An asset prepared after the cancel is let go then (its downloads, its decoder's files).
            (late) => late?.dispose?.(),
          ),
        )
      const asset = context ? await reuse!.prepare(prepareKey(clip, aliases, context), run, remark) : await run(remark)
      prepared[i] = checkedPrepared(asset, plugin.name, `${path}.asset`)
    })

    // 4. Timing.
    const timing = resolveTiming(
      clips.map(({ clip, t, path }, i) => ({ path, track: t, start: clip.start, length: clip.length, alias: clip.alias, duration: prepared[i]!.duration })),
    )
    const timelineDuration = Math.max(0, ...timing.map((x) => x.start + x.length))
    if (!(timelineDuration > 0))
      throw new RenderError('E_TIMELINE_INVALID', 'the timeline is empty: its clips last 0 seconds', {
        issues: [{ path: 'timeline.tracks', message: 'total duration is 0' }],
      })

    // 5. What is written: the range (a single frame for stills), and its sound.
    const { firstFrame, frames } = frameRange(output, fps, timelineDuration, outputPlugin.takes)
    const duration = frames / fps
    const sounds: Placement[] = []
    clips.forEach((_, i) => {
      const audio = prepared[i]!.audio
      if (audio) sounds.push({ source: audio, start: timing[i]!.start, length: timing[i]!.length, path: clips[i]!.path })
    })
    const soundtrack = edit.timeline.soundtrack
    if (soundtrack) {
      const path = await load(soundtrack.src, 'timeline.soundtrack')
      const info = await probe(path, { signal }).catch(() => undefined)
      if (!info?.streams.some((s) => s.type === 'audio'))
        throw new RenderError('E_ASSET_UNREADABLE', `timeline.soundtrack.src: ${soundtrack.src} has no audio stream`, { path: 'timeline.soundtrack.src' })
      const fileLength = info.duration ?? timelineDuration
      // Shotstack: the soundtrack plays for the video's length or the file's, whichever is shorter.
      sounds.push({
        source: { path, trim: 0, speed: 1, volume: soundtrack.volume ?? 1, effect: soundtrack.effect, duration: fileLength },
        start: 0,
        length: Math.min(timelineDuration, fileLength),
        path: 'timeline.soundtrack',
      })
    }
    // ffmpeg input 0 is the piped video, except for audio-only outputs.
    const audio =
      output.mute || outputPlugin.takes === 'still' || outputPlugin.sound === false
        ? undefined
        : buildAudioMix(sounds, firstFrame / fps, duration, outputPlugin.takes === 'audio' ? 0 : 1)

    // 6. GL: where it is a software rasteriser, opened only when a frame needs it (lazy-gpu.ts).
    const opened = reuse ? { gpu: await reuse.gpu(frame), software: false } : await openGpu(frame)
    gpu = opened.gpu

    // 7. Layers.
    const filters: LayerContext['filters'] = []
    const layers: LayerPlan[] = []
    const trackCount = edit.timeline.tracks.length
    clips.forEach(({ clip, t, c, path }, i) => {
      const asset = prepared[i]!
      const at = { id: i, path, track: t, order: (trackCount - 1 - t) * 1_000_000 + c, ...timing[i]! }
      if (asset.size) layers.push(buildLayer(clip, at, asset as PreparedAsset & { size: Size }, { registry, gpu: gpu!, frame, fps, yAxis: ctx.yAxis, filters }))
    })
    layers.sort((a, b) => a.order - b.order)
    // A luma matte masks the first content clip it overlaps on its own track (Shotstack's editor does the same).
    for (const luma of layers.filter((l) => l.role === 'luma')) {
      const target = layers
        .filter((l) => l.role === 'content' && l.track === luma.track && l.startFrame < luma.endFrame && luma.startFrame < l.endFrame)
        .sort((a, b) => a.id - b.id)[0]
      if (target) target.lumas.push(luma)
      else warnings.push({ path: `${luma.path}.asset`, message: 'this luma matte overlaps no clip on its track, so it masks nothing' })
    }

    // 8. Painter (one program per distinct filter).
    const background = parseColor(edit.timeline.background ?? '#000000')
    const paint = () =>
      createPainter(
        gpu!,
        background,
        filters.map((f) => f.glsl),
        (i, e) => codeError(filters[i]!.plugin, 'compile', filters[i]!.path, e),
      )
    // Filters compile now, so a broken one fails the plan, not a frame; without any the painter waits for GL's first frame.
    painter = reuse
      ? reuse.painter(JSON.stringify([background, filters.map((f) => f.glsl)]), paint)
      : opened.software && !filters.length
        ? lazyPainter(paint)
        : paint()
    // 9. Frames as I420 where the output takes them (packed on the GPU, or in WebAssembly on a software renderer);
    // posters and thumbnails need the RGBA frame, so those renders keep it.
    if (outputPlugin.yuvFrames && !scaleTo && !output.poster && !output.thumbnail) yuv = framePacker(gpu, opened.software)

    return {
      edit,
      warnings,
      frame,
      scaleTo,
      fps,
      fpsRational: fpsRational(fps),
      timelineDuration,
      firstFrame,
      frames,
      duration,
      format,
      output: outputPlugin,
      layers,
      sounds,
      audio,
      gpu,
      painter,
      yuv,
      tmpDir,
      dispose,
    }
  } catch (e) {
    await dispose()
    throw e
  }
}

/** Frames to write: the whole timeline, `output.range`, or one frame at `range.start` for stills. */
function frameRange(output: ValidEdit['output'], fps: number, timelineDuration: number, takes: OutputPlugin['takes']): { firstFrame: number; frames: number } {
  const total = Math.max(1, Math.round(timelineDuration * fps))
  const start = output.range?.start ?? 0
  const refused = (path: string, message: string) => new RenderError('E_TIMELINE_INVALID', `${path} ${message}`, { issues: [{ path, message }] })
  // A video or sound from past the end would be one frame of the end: refused (a still takes the last frame).
  if (takes !== 'still' && start >= timelineDuration) throw refused('output.range.start', `is past the end of the ${timelineDuration.toFixed(2)} s timeline`)
  const firstFrame = Math.min(total - 1, Math.max(0, Math.round(start * fps)))
  if (takes === 'still') return { firstFrame, frames: 1 }
  const length = output.range?.length
  const last = length !== undefined ? Math.min(total, firstFrame + Math.round(length * fps)) : total
  if (last <= firstFrame) throw refused('output.range', `selects no frames of the ${timelineDuration.toFixed(2)} s timeline`)
  return { firstFrame, frames: last - firstFrame }
}

/** Runs `fn` over `items` with at most `limit` in flight; the first failure rejects (others still settle). */
async function forEachLimited<T>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0
  let stop = false
  const worker = async () => {
    while (!stop && next < items.length) {
      const i = next++
      try {
        await fn(items[i]!, i)
      } catch (e) {
        stop = true // no new work once one item failed
        throw e
      }
    }
  }
  const results = await Promise.allSettled(Array.from({ length: Math.min(limit, items.length) }, worker))
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')
  if (failed) throw failed.reason
}
