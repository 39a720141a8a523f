import { mkdir, rm } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { outputSize, RenderError, type Compositor, type Edit, type PlannedRender, type RenderProgress, type Warning } from '../../core/index.js'
import type { Limits } from '../config.js'
import { knownDuration } from './limits.js'
import { timeBudget } from './time-budget.js'
import type { JobKind, JobStage, YAxis } from './store.js'
import { stitchToEdit, type StitchRequest } from './stitch.js'
import type { Storage } from '../storage/storage.js'
import { ServiceError } from '../errors.js'

/** The "SANDBOX" watermark laid over every frame of a sandbox render. */
const WATERMARK = { asset: { type: 'title', text: 'SANDBOX', style: 'chunk', size: 'x-large', color: '#66ffffff' }, start: 0, length: 'end' }

/** What a worker needs to render a job — all of it, so a worker on another machine needs no database. */
export interface RenderTask {
  id: string
  kind: JobKind
  request: unknown
  sandbox: boolean
  accountId: string
  keyId: string
  /** Split into this many time segments rendered by several workers (BullMQ back end; mp4 only); 1 or unset: whole. */
  segments?: number | null
  /** Which way the edit's `offset.y` counts (absent in tasks queued before it existed: down). */
  yAxis?: YAxis
}

/** A finished render: storage keys of its files and what settling the job needs. */
export interface RenderOutcome {
  keys: { url: string; poster?: string; thumbnail?: string }
  duration: number
  width: number
  height: number
  frames: number
  renderMs: number
  warnings: Warning[]
}

/** The edit a job renders: stitches become edits; sandbox edits get the watermark track on top. */
export function editOf(task: Pick<RenderTask, 'kind' | 'request' | 'sandbox'>): Edit {
  // The request was validated when it was submitted; the renderer validates it again before drawing.
  const edit = (task.kind === 'stitch' ? stitchToEdit(task.request as StitchRequest) : structuredClone(task.request)) as Edit
  if (task.sandbox) {
    edit.timeline.tracks = [{ clips: [WATERMARK] } as Edit['timeline']['tracks'][number], ...edit.timeline.tracks]
  }
  return edit
}

/** A failed upload as the job's error: E_UNAVAILABLE (storage down past its budget) as it is, anything else E_INTERNAL. */
const storingFailed = (e: unknown) =>
  e instanceof ServiceError ? e : new ServiceError('E_INTERNAL', `the render could not be stored: ${e instanceof Error ? e.message : String(e)}`)

/** A path into the watermark track a sandbox render adds on top (its own remarks are not the client's). */
const isWatermark = (task: Pick<RenderTask, 'sandbox'>, path: string) => task.sandbox && /^timeline\.tracks\[0\]/.test(path)

/**
 * Edit paths in a render's warnings and errors as the client sent the request: without the sandbox watermark
 * track (tracks[i + 1] is the client's tracks[i]), and a stitch's clips by their own index (`clips[2]`).
 */
export function clientPaths(task: Pick<RenderTask, 'sandbox' | 'kind'>, text: string): string {
  let out = task.sandbox ? text.replace(/timeline\.tracks\[(\d+)\]/g, (_m, n: string) => `timeline.tracks[${Number(n) - 1}]`) : text
  if (task.kind === 'stitch') out = out.replace(/timeline\.tracks\[0\]\.clips\[(\d+)\]\.asset\./g, 'clips[$1].')
  return out
}

/**
 * Renders a task into `<workRoot>/<id>/` (progress throttled for `onProgress`) and moves the files into storage (keys `<id>/<name>`). The same
 * step for the in-process worker and for `reelforge worker` on another machine; settling (charge, complete,
 * webhooks) is the service's, with what this returns.
 */
export async function renderToStorage(
  /** `limits`: the render's time budget is enforced from them (absent: no budget, as in the library). */
  deps: { renderer: Compositor; storage: Storage; workRoot: string; limits?: Limits },
  task: RenderTask,
  opts: {
    signal: AbortSignal
    onProgress(stage: JobStage, progress: number): void
    /** Once planned, before the first frame: the service holds the real price here (a throw stops the render). */
    onPlanned?(planned: PlannedRender): Promise<void>
  },
): Promise<RenderOutcome> {
  const dir = join(deps.workRoot, task.id)
  // Per-frame progress is reported at most every 500 ms (each report is a database write or a Redis message);
  // stage changes always.
  let last = 0
  let lastStage: JobStage | undefined
  const report = (stage: JobStage, progress: number) => {
    const now = Date.now()
    if (stage === 'rendering' && lastStage === 'rendering' && now - last < 500) return
    last = now
    lastStage = stage
    opts.onProgress(stage, progress)
  }
  const edit = editOf(task)
  // The stored edit is as submitted: /v1 takes one without `output` (an hd mp4, the schema's defaults).
  const size = outputSize((edit.output ?? {}) as Parameters<typeof outputSize>[0])
  // The clock starts now, sized by what the numbers say; the planned duration (smart timing) re-arms it.
  const budget = deps.limits && timeBudget(deps.limits, knownDuration(edit), size.width, size.height)
  const onPlanned =
    budget || opts.onPlanned
      ? async (planned: PlannedRender) => {
          budget?.arm(planned.duration, planned.width, planned.height)
          await opts.onPlanned?.(planned)
        }
      : undefined
  try {
    await mkdir(dir, { recursive: true })
    const result = await deps.renderer.render(edit, {
      out: join(dir, `${task.id}.${extensionOf(deps.renderer, edit)}`),
      signal: budget ? AbortSignal.any([opts.signal, budget.signal]) : opts.signal,
      // AI assets in the edit are generated for (and charged to) the job's account.
      owner: { accountId: task.accountId, keyId: task.keyId, sandbox: task.sandbox, admin: false, jobId: task.id },
      onProgress: (p: RenderProgress) => report(p.stage, p.progress),
      onPlanned,
      yAxis: task.yAxis ?? 'down',
    })
    report('saving', 0.98)
    // Storage rides out outages itself (service/storage/storage-retry.ts); whatever it still fails with ends the
    // job as a ServiceError, which no queue retries: rendering again would not store the file any better.
    const put = (file: string) => deps.storage.put(`${task.id}/${basename(file)}`, file).catch((e) => Promise.reject(storingFailed(e)))
    return {
      keys: {
        url: await put(result.path),
        poster: result.poster ? await put(result.poster) : undefined,
        thumbnail: result.thumbnail ? await put(result.thumbnail) : undefined,
      },
      duration: result.duration,
      width: result.width,
      height: result.height,
      frames: result.frames,
      renderMs: result.renderMs,
      warnings: result.warnings.flatMap((w) =>
        isWatermark(task, w.path) ? [] : [{ ...w, path: clientPaths(task, w.path), message: clientPaths(task, w.message) }],
      ),
    }
  } catch (e) {
    if (e instanceof RenderError && (task.sandbox || task.kind === 'stitch')) {
      throw new RenderError(e.code, clientPaths(task, e.message), e.data && { ...e.data, path: e.data.path && clientPaths(task, e.data.path) }, { cause: e })
    }
    throw e
  } finally {
    budget?.clear()
    await rm(dir, { recursive: true, force: true })
  }
}

/**
 * The file extension of the edit's output format, as its output plugin says (`jpg` for `jpeg`, a custom
 * plugin's own); an unknown format (the render refuses it) gets its name, stripped to letters and digits.
 */
function extensionOf(renderer: Compositor, edit: Edit): string {
  const format = String((edit as { output?: { format?: unknown } }).output?.format ?? 'mp4')
  return renderer.registry.find('output', format)?.extension ?? format.replace(/[^a-z0-9]/gi, '')
}
