import { mkdtemp, rm, stat } from 'node:fs/promises'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { RenderError, type Compositor, type Edit, type PlannedRender, type RenderOptions, type RenderProgress, type RenderResult } from '../../core/index.js'
import type { FilePolicy, NetworkPolicy } from '../../plugins/index.js'
import { IsolatedRenderer } from './isolated-renderer.js'
import { autoSegments, isSegmentable, joinSegments } from './segment-join.js'

/**
 * Renders one piece of a segmented render — a time range as its own file in the render's format (`index` 0…n−1) or the whole sound as
 * mp3 (`'sound'`) — and says where its file is. The default runs pieces in processes of this machine; the
 * BullMQ back end queues them for workers on other machines (`remotePieces`).
 */
export type PieceRenderer = (
  piece: Edit,
  // `cores`: the piece's share of this machine (local pieces size their threads to it); `cpuEncoder` is set on
  // every video piece: they all encode with x264, so they join by stream copy.
  opts: Pick<RenderOptions, 'out' | 'signal' | 'baseDir' | 'onProgress' | 'yAxis' | 'cores' | 'cpuEncoder'> & { index: number | 'sound' },
) => Promise<Pick<RenderResult, 'path' | 'width' | 'height' | 'drawn'>>

export interface SegmentedOptions {
  out: string
  /** Who renders the pieces (default: a pool of render processes on this machine). */
  pieces?: PieceRenderer
  /**
   * Time segments rendered at once, each in its own process (default: 2). `'auto'` chooses from the machine's
   * cores (`cores`, default: this machine's) and the length: one piece below 8 cores (see `autoSegments`).
   */
  segments?: number | 'auto'
  /** Cores `'auto'` plans for (default: `os.availableParallelism()`). */
  cores?: number
  signal?: AbortSignal
  onProgress?: (p: RenderProgress) => void
  /** As `RenderOptions.onPlanned`: once, for the whole render, after it is planned and before any piece starts. */
  onPlanned?: (planned: PlannedRender) => void | Promise<void>
  baseDir?: string
  /** As `RenderOptions.yAxis`, for the plan and every piece. */
  yAxis?: 'down' | 'up'
  cacheDir?: string
  network?: NetworkPolicy
  /** Local files the pieces may read (default: any, as `createRenderer`). */
  files?: FilePolicy
}

/**
 * Renders an mp4, webm or mov as N time segments in N processes at once and joins them without re-encoding
 * (segment-join.ts): the sound is rendered once, over the whole range, and muxed in. Segment bounds fall on
 * whole frames, so the result has exactly the frames and duration of a single render.
 *
 * `local` plans the edit first (validation, smart timing, downloads into the shared cache) to learn the
 * frame count; other formats, and edits too short to split, render in one piece.
 */
const noAi = (): never => {
  throw new RenderError('E_PROVIDER_FAILED', 'AI assets are generated before segmented rendering; render this edit in one piece')
}

export async function renderSegmented(local: Compositor, edit: Edit, opts: SegmentedOptions): Promise<RenderResult & { segments: number }> {
  const started = performance.now()
  const whole = async () => ({
    ...(await local.render(edit, {
      out: opts.out,
      signal: opts.signal,
      onProgress: opts.onProgress,
      onPlanned: opts.onPlanned,
      baseDir: opts.baseDir,
      yAxis: opts.yAxis,
    })),
    segments: 1,
  })
  const asked = opts.segments ?? 2
  const cores = opts.cores ?? availableParallelism()
  // Formats that cannot be joined by stream copy render in one piece, without planning twice.
  if (asked === 1 || (asked === 'auto' && cores < 8) || !isSegmentable(local.validate(edit).edit.output.format)) return whole()
  const plan = await local.plan(edit, { signal: opts.signal, baseDir: opts.baseDir, yAxis: opts.yAxis })
  const { firstFrame, frames, fps, format, edit: valid } = plan
  const hasAudio = !!plan.audio
  const picture = plan.scaleTo ?? plan.frame
  await plan.dispose()
  const wanted = asked === 'auto' ? autoSegments(cores, frames / fps) : asked
  const n = Math.max(1, Math.min(wanted, Math.floor(frames / fps))) // at least a second each
  if (n === 1) return whole()
  // The pieces never call it: the whole render is planned here, once.
  await opts.onPlanned?.({ duration: frames / fps, timelineDuration: plan.timelineDuration, frames, fps, width: picture.width, height: picture.height })

  const work = await mkdtemp(join(tmpdir(), 'reelforge-segments-'))
  const pool = opts.pieces
    ? undefined
    : new IsolatedRenderer(
        local,
        () => ({ cacheDir: opts.cacheDir ?? join(tmpdir(), 'reelforge-cache'), network: opts.network ?? {}, files: opts.files, baseUrl: '' }),
        noAi,
        noAi,
      )
  const renderPiece: PieceRenderer = opts.pieces ?? ((piece, o) => pool!.render(piece, o))
  // Each piece sizes its threads to its share; the sound piece is light and runs beside them.
  const share = Math.max(1, Math.floor(cores / n))
  // One piece failing stops the others (remote pieces would otherwise render on for nothing).
  const inner = new AbortController()
  const onAbort = () => inner.abort(opts.signal!.reason)
  opts.signal?.addEventListener('abort', onAbort, { once: true })
  try {
    const bounds = Array.from({ length: n + 1 }, (_, k) => firstFrame + Math.round((k * frames) / n))
    const done = new Array<number>(n).fill(0)
    const report = (stage: RenderProgress['stage'] = 'rendering') => {
      const frame = done.reduce((s, f) => s + f, 0)
      const fpsNow = frame / Math.max(1e-3, (performance.now() - started) / 1000)
      opts.onProgress?.({
        stage,
        progress: Math.min(0.99, frame / frames),
        frame,
        frames,
        fps: fpsNow,
        etaMs: ((frames - frame) / Math.max(1e-3, fpsNow)) * 1000,
      })
    }
    const output = valid.output as Record<string, unknown>
    // The validated timeline: each asset passed its own schema, so it is an `Edit`'s asset, typed loosely.
    const piece = (range: { start: number; length: number }, extra: object) =>
      ({
        ...(edit as object),
        merge: undefined,
        timeline: valid.timeline,
        output: { ...output, range, poster: undefined, thumbnail: undefined, ...extra },
      }) as Edit
    const segments = bounds.slice(0, -1).map((from, k) => {
      // Times are whole frames over fps: the range rounds back to exactly these frames.
      const range = { start: from / fps, length: (bounds[k + 1]! - from) / fps }
      return renderPiece(piece(range, { mute: true }), {
        index: k,
        out: join(work, `segment-${k}.${format}`),
        signal: inner.signal,
        baseDir: opts.baseDir,
        yAxis: opts.yAxis,
        cores: share,
        cpuEncoder: true,
        onProgress: (p) => ((done[k] = p.frame), report()),
      })
    })
    const sound = hasAudio
      ? renderPiece(piece({ start: firstFrame / fps, length: frames / fps }, { format: 'mp3', quality: 'veryhigh' }), {
          index: 'sound',
          out: join(work, 'sound.mp3'),
          signal: inner.signal,
          baseDir: opts.baseDir,
        })
      : undefined
    const [parts, audio] = await Promise.all([Promise.all(segments), sound]).catch((e) => {
      inner.abort(e)
      throw e
    })
    report('encoding')
    const quality = (valid.output.quality ?? 'medium') as Parameters<typeof joinSegments>[1]['quality']
    await joinSegments(
      parts.map((p) => p.path),
      { format, quality, sound: audio?.path, out: opts.out, work, signal: opts.signal },
    )
    const first = parts[0]!
    return {
      path: opts.out,
      duration: frames / fps,
      frames,
      width: first.width,
      height: first.height,
      fps,
      bytes: (await stat(opts.out)).size,
      renderMs: performance.now() - started,
      drawn: parts.reduce((s, p) => s + p.drawn, 0),
      hasAudio: !!audio,
      warnings: [...plan.warnings],
      segments: n,
    }
  } finally {
    opts.signal?.removeEventListener('abort', onAbort)
    pool?.close()
    await rm(work, { recursive: true, force: true })
  }
}
