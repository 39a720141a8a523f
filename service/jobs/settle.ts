import { RenderError } from '../../core/index.js'
import type { Billing } from '../billing/billing.js'
import { fileUrl, type ServiceConfig } from '../config.js'
import type { Destinations } from '../destinations/deliver.js'
import { ServiceError } from '../errors.js'
import type { JobEvents } from './job-events.js'
import type { JobStore } from './store.js'
import type { RenderOutcome } from './render-task.js'
import { logger } from '../log.js'

const log = logger('worker')

export interface SettleDeps {
  config: ServiceConfig
  jobs: JobStore
  billing: Billing
  events: JobEvents
  /** Copies finished renders to their `output.destinations` before they complete (absent: none are sent). */
  destinations?: Destinations
}

/** Thrown inside the completing transaction to roll back when this worker no longer holds the job. */
class LeaseLost extends Error {}

/**
 * Completes a job held by `owner` with a finished render. Charge and completion commit together: a crash
 * before leaves neither (the job renders again and is charged then), a crash after leaves both — never a
 * double charge. False when the job was cancelled meanwhile or `owner` no longer holds it. A render the
 * account cannot pay in full (its hold was topped up when planned, so this should not happen) is failed
 * with `E_INSUFFICIENT_CREDITS` instead: never delivered for less than its price.
 */
export async function completeJob(d: SettleDeps, id: string, owner: string, outcome: RenderOutcome, signal?: AbortSignal): Promise<boolean> {
  // Destinations are sent first (the job still PROCESSING, `saving`): COMPLETE and its webhook carry every outcome.
  const job = d.destinations && (await d.jobs.get(id))
  const delivered = job && job.status === 'PROCESSING' ? await d.destinations!.deliver(job, outcome.keys, signal) : undefined
  const hosted = delivered?.moved
  let completed = false
  try {
    completed = await d.jobs.transaction(async () => {
      if (await d.jobs.cancelRequested(id)) return false
      const credits = await d.billing.settleRender(id, { seconds: outcome.duration, width: outcome.width, height: outcome.height })
      const url = hosted?.url ?? fileUrl(d.config, outcome.keys.url)
      const done = await d.jobs.complete(id, owner, {
        url,
        poster: hosted ? hosted.poster : outcome.keys.poster && fileUrl(d.config, outcome.keys.poster),
        thumbnail: hosted ? hosted.thumbnail : outcome.keys.thumbnail && fileUrl(d.config, outcome.keys.thumbnail),
        duration: outcome.duration,
        credits,
        warnings: outcome.warnings,
        destinations: delivered?.records,
      })
      if (!done) throw new LeaseLost()
      // render.complete commits with the completion (a crash between them would lose it: the outbox holds only
      // what was written). Its listeners' failures are logged, not thrown: the render stands without its webhook.
      await d.events.emit('render.complete', (await d.jobs.get(id))!)
      return true
    })
  } catch (e) {
    if (e instanceof LeaseLost) return false // another worker owns the job now; its result stands
    if (e instanceof ServiceError && e.code === 'E_INSUFFICIENT_CREDITS') {
      await failJob(d, id, owner, e) // the charge rolled back with the completion: the hold is released here
      return false
    }
    throw e
  }
  if (completed && hosted) await d.destinations!.removeHosted(id, outcome.keys) // `exclude: true`: the copies are the render now
  return completed
}

/**
 * Fails a job (releasing its credit hold) and says so by webhook; a no-op when it already ended. `error` is
 * what was thrown, or the message a remote worker reported.
 */
export async function failJob(d: SettleDeps, id: string, owner: string | null, error: unknown, cancelled = false): Promise<boolean> {
  const message = cancelled ? 'cancelled' : failureText(error)
  if (error instanceof Error && !(error instanceof RenderError) && !(error instanceof ServiceError) && !cancelled)
    log.error(`job ${id} failed unexpectedly:`, error)
  // The failure, the release of the hold and render.failed commit together (a crash between them loses none).
  return d.jobs.transaction(async () => {
    const ok = await d.jobs.fail(id, owner, message)
    if (ok) await d.billing.release(id)
    if (ok) await d.events.emit('render.failed', (await d.jobs.get(id))!)
    return ok
  })
}

/**
 * A failure as a job's `error`: the message, led by its code when the service refused or stopped the work
 * (`E_INSUFFICIENT_CREDITS: the render lasts …`, `E_TIME_LIMIT: …`) — the job has no other place to carry the code.
 */
export const failureText = (error: unknown): string =>
  error instanceof ServiceError || (error instanceof RenderError && LIMIT_CODES.has(error.code))
    ? `${error.code}: ${error.message}`
    : error instanceof Error
      ? error.message
      : String(error)

/** A render stopped by a service limit says which, as a refusal does: clients branch on the code. */
const LIMIT_CODES = new Set(['E_TIME_LIMIT', 'E_MEMORY_LIMIT'])
