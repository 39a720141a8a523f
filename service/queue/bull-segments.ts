import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { type Queue, type QueueEvents, Worker, type Job } from 'bullmq'
import type { Redis } from 'ioredis'
import { RenderError, type Compositor, type Edit } from '../../core/index.js'
import type { PieceRenderer } from '../isolation/render-segmented.js'
import { bullFailure, cancelBullJob, workerOptions } from './bull-queue.js'
import { materialize, type Storage } from '../storage/storage.js'
import { finished } from './bull-finished.js'

/**
 * The BullMQ queue the pieces of segment-parallel renders wait in. A separate queue from whole renders, so
 * a worker coordinating a split render (waiting for its pieces) never holds the slot a piece needs.
 */
export const SEGMENT_QUEUE = 'reelforge-segment'

/** One piece: a time range of the parent render as its own file in the render's format, or the whole sound as mp3. */
export interface SegmentTask {
  parent: string
  /** Which attempt of the parent queued it (keys stay distinct when a parent is retried). */
  attempt: number
  index: number | 'sound'
  edit: Edit
  /** The parent render's `offset.y` sign (absent: down). */
  yAxis?: 'down' | 'up'
}

export interface SegmentOutcome {
  key: string
  width: number
  height: number
  frames: number
  drawn: number
}

const pieceName = (t: Pick<SegmentTask, 'attempt' | 'index' | 'edit'>) =>
  `segment-${t.attempt}-${t.index}.${t.index === 'sound' ? 'mp3' : ((t.edit.output as { format?: string }).format ?? 'mp4')}`

/**
 * The coordinator's side: each piece is queued for any worker (its storage key names the parent render) and
 * its file is read back from the shared storage once it is done. Progress comes through BullMQ's events;
 * cancelling the parent removes the pieces still waiting and tells the workers rendering the others.
 */
export function remotePieces(d: {
  queue: Queue
  events: QueueEvents
  publisher: Redis
  storage: Storage
  cacheDir: string
  parent: string
  attempt: number
}): PieceRenderer & { cleanup(): Promise<void> } {
  const keys: string[] = []
  /** Local copies made of pieces in object storage (local storage hands out the stored file itself). */
  const downloads: string[] = []
  const run: PieceRenderer = async (piece, o) => {
    const task: SegmentTask = { parent: d.parent, attempt: d.attempt, index: o.index, edit: piece, yAxis: o.yAxis }
    const job: Job<SegmentTask, SegmentOutcome> = await d.queue.add('segment', task, {
      jobId: `${d.parent}-${d.attempt}-${o.index}`,
      attempts: 3,
      backoff: { type: 'exponential', delay: 1000 },
      removeOnComplete: { age: 3600 },
      removeOnFail: { age: 86400 },
    })
    const onProgress = ({ jobId, data }: { jobId: string; data: unknown }) => {
      if (jobId === job.id && typeof data === 'number') o.onProgress?.({ stage: 'rendering', progress: 0, frame: data, frames: 0, fps: 0, etaMs: 0 })
    }
    const abort = () => void cancelBullJob(String(job.id), job, d.publisher).catch(() => {})
    d.events.on('progress', onProgress)
    o.signal?.addEventListener('abort', abort, { once: true })
    try {
      const outcome = await finished(d.queue, job, d.events)
      keys.push(outcome.key)
      const path = await materialize(d.storage, outcome.key, d.cacheDir)
      if (!path) throw new RenderError('E_OUTPUT_FAILED', `segment ${o.index} of ${d.parent} is missing from storage (${outcome.key})`)
      if (path !== d.storage.localPath(outcome.key)) downloads.push(path)
      return { path, width: outcome.width, height: outcome.height, drawn: outcome.drawn }
    } catch (e) {
      if (o.signal?.aborted) throw new RenderError('E_CANCELLED', 'cancelled')
      if (e instanceof RenderError) throw e
      throw new RenderError('E_RENDERER_CRASHED', `segment ${o.index} failed on its worker: ${(e as Error).message}`)
    } finally {
      d.events.off('progress', onProgress)
      o.signal?.removeEventListener('abort', abort)
    }
  }
  return Object.assign(run, {
    /** Removes the pieces from storage, and their downloaded copies, once joined (the joined file is what stays). */
    async cleanup() {
      await Promise.all([...keys.map((k) => d.storage.remove(k).catch(() => {})), ...downloads.map((f) => rm(f, { force: true }))])
    },
  })
}

/** The piece side: every `reelforge worker` renders pieces too, into the shared storage. */
export function segmentWorker(o: {
  connection: Redis
  renderer: Compositor
  storage: Storage
  workRoot: string
  concurrency: number
  lockMs: number
  log(line: string): void
}) {
  return new Worker<SegmentTask, SegmentOutcome>(
    SEGMENT_QUEUE,
    async (job, _token, signal) => {
      const t = job.data
      const dir = join(o.workRoot, `${t.parent}-${t.attempt}-${t.index}`)
      o.log(`rendering segment ${t.index} of ${t.parent} (attempt ${job.attemptsMade + 1})`)
      let lastReport = 0
      try {
        const result = await o.renderer.render(t.edit, {
          out: join(dir, pieceName(t)),
          signal: signal ?? new AbortController().signal,
          yAxis: t.yAxis,
          cpuEncoder: true, // every worker's piece the same encoder, whatever GPU it has: they join by stream copy
          onProgress: (p) => {
            if (Date.now() - lastReport < 500) return
            lastReport = Date.now()
            void job.updateProgress(p.frame).catch(() => {})
          },
        })
        const key = await o.storage.put(`${t.parent}/${pieceName(t)}`, result.path)
        o.log(`rendered segment ${t.index} of ${t.parent}: ${result.frames} frames in ${(result.renderMs / 1000).toFixed(1)} s`)
        return { key, width: result.width, height: result.height, frames: result.frames, drawn: result.drawn }
      } catch (e) {
        throw bullFailure(e, signal)
      } finally {
        await rm(dir, { recursive: true, force: true })
      }
    },
    workerOptions(o.connection, o.concurrency, o.lockMs),
  )
}
