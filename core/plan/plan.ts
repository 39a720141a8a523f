import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pluginError, RenderError, type Warning } from '../errors.js'
import type { FontBook } from '../fonts.js'
import type { AudioSource } from '../audio/types.js'
import type { OutputPlugin, PreparedAsset, Size } from '../plugin.js'
import type { Registry } from '../registry.js'
import { createGLContext, destroyGLContext } from '../render/gl-context.js'
import { createGpu, type Gpu } from '../render/gpu.js'
import { createPainter, type Painter } from '../render/painter.js'
import type { Format } from '../schema/output.js'
import type { ValidEdit } from '../schema/validate.js'
import { parseColor } from './color.js'
import { buildLayer, type LayerPlan } from './layers.js'
import { createLoad, type LoadOptions } from './load.js'
import { fpsRational, outputFps, outputSize } from './output-size.js'
import { resolveTiming } from './timing.js'

/** A sound placed on the timeline. */
export interface PlacedAudio {
  path: string
  source: AudioSource
  start: number
  length: number
}

/** A render, fully resolved: every plugin looked up, every asset prepared, every shader compiled. */
export interface RenderPlan {
  readonly edit: ValidEdit
  readonly warnings: Warning[]
  readonly frame: Size
  readonly fps: number
  readonly fpsRational: string
  /** Seconds of output. */
  readonly duration: number
  readonly frames: number
  readonly format: Format
  readonly output: OutputPlugin
  /** Layers in draw order (bottom first). */
  readonly layers: LayerPlan[]
  readonly audio: PlacedAudio[]
  readonly gpu: Gpu
  readonly painter: Painter
  readonly tmpDir: string
  dispose(): Promise<void>
}

export interface PlanContext {
  registry: Registry
  fonts: FontBook
  yAxis: 'down' | 'up'
  load: LoadOptions
  signal: AbortSignal
  /** Parallel `prepare` calls (downloads, probes). */
  concurrency: number
}

/**
 * Turns a validated edit into a RenderPlan (cold, once per render):
 * 1. output size, rate and plugin; 2. prepare every asset (fetch, probe); 3. resolve smart timing;
 * 4. create the GL context; 5. build layers (fit, tracks, transitions, effects, filters); 6. compile the painter.
 */
export async function createPlan(edit: ValidEdit, warnings: Warning[], ctx: PlanContext): Promise<RenderPlan> {
  const { registry, signal } = ctx
  // 1. Output.
  const output = edit.output
  const frame = outputSize(output)
  const fps = outputFps(output)
  const format = output.format
  const outputPlugin = registry.get('output', format, 'output.format')

  const tmpDir = await mkdtemp(join(ctx.load.tmpDir ?? tmpdir(), 'reelforge-'))
  const prepared: PreparedAsset[] = []
  let gpu: Gpu | undefined
  let painter: Painter | undefined
  const dispose = async () => {
    for (const asset of prepared) asset?.dispose?.()
    painter?.dispose()
    if (gpu) destroyGLContext(gpu.gl)
    await rm(tmpDir, { recursive: true, force: true })
  }
  try {
    // 2. Prepare every asset, a few at a time.
    const load = createLoad(registry, ctx.load, signal)
    const fonts = ctx.fonts
    const clips = edit.timeline.tracks.flatMap((track, t) => track.clips.map((clip, c) => ({ clip, t, c, path: `timeline.tracks[${t}].clips[${c}]` })))
    await forEachLimited(clips, ctx.concurrency, async ({ clip, path }, i) => {
      const plugin = registry.get('asset', clip.asset.type, `${path}.asset.type`)
      try {
        prepared[i] = await plugin.prepare(clip.asset, {
          path,
          frame: { ...frame, fps },
          signal,
          load: (src) => load(src, `${path}.asset`),
          warn: (message) => warnings.push({ path: `${path}.asset`, message }),
          fonts,
          tmpDir,
          yAxis: ctx.yAxis,
        })
      } catch (e) {
        throw pluginError('asset', plugin.name, 'prepare', e, `${path}.asset`)
      }
    })

    // 3. Timing.
    const timing = resolveTiming(
      clips.map(({ clip, t, path }, i) => ({ path, track: t, start: clip.start, length: clip.length, alias: clip.alias, duration: prepared[i]!.duration })),
    )
    const duration = Math.max(0, ...timing.map((x) => x.start + x.length))
    if (!(duration > 0)) throw new RenderError('E_TIMELINE_INVALID', 'the timeline is empty: its clips last 0 seconds', { issues: [{ path: 'timeline.tracks', message: 'total duration is 0' }] })
    const frames = Math.max(1, Math.round(duration * fps))

    // 4. GL.
    gpu = createGpu(await createGLContext(frame.width, frame.height), frame)

    // 5. Layers and sounds.
    const filters: string[] = []
    const layers: LayerPlan[] = []
    const audio: PlacedAudio[] = []
    const trackCount = edit.timeline.tracks.length
    clips.forEach(({ clip, t, c, path }, i) => {
      const asset = prepared[i]!
      const at = { id: i, path, track: t, order: (trackCount - 1 - t) * 1_000_000 + c, ...timing[i]! }
      if (asset.audio) audio.push({ path, source: asset.audio, start: at.start, length: at.length })
      if (asset.size) layers.push(buildLayer(clip, at, asset as PreparedAsset & { size: Size }, { registry, gpu: gpu!, frame, fps, yAxis: ctx.yAxis, filters }))
    })
    layers.sort((a, b) => a.order - b.order)

    // 6. Painter (one program per distinct filter).
    painter = createPainter(gpu, parseColor(edit.timeline.background ?? '#000000'), filters)

    return { edit, warnings, frame, fps, fpsRational: fpsRational(fps), duration, frames, format, output: outputPlugin, layers, audio, gpu, painter, tmpDir, dispose }
  } catch (e) {
    await dispose()
    throw e
  }
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
