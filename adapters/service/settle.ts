import { RenderError } from '../../core/index.js'
import type { Billing } from './billing.js'
import { fileUrl, type ServiceConfig } from './config.js'
import type { JobEvents } from './events.js'
import type { JobStore } from './jobs.js'
import type { RenderOutcome } from './render-task.js'

export interface SettleDeps {
  config: ServiceConfig
  jobs: JobStore
  billing: Billing
  events: JobEvents
}

/** Thrown inside the completing transaction to roll back when this worker no longer holds the job. */
class LeaseLost extends Error {}

/**
 * Completes a job held by `owner` with a finished render. Charge and completion commit together: a crash
 * before leaves neither (the job renders again and is charged then), a crash after leaves both — never a
 * double charge. False when the job was cancelled meanwhile or `owner` no longer holds it.
 */
export function completeJob(d: SettleDeps, id: string, owner: string, outcome: RenderOutcome): boolean {
  let completed = false
  try {
    completed = d.jobs.transaction(() => {
      if (d.jobs.cancelRequested(id)) return false
      const credits = d.billing.settle(id, { seconds: outcome.duration, width: outcome.width, height: outcome.height })
      const url = fileUrl(d.config, outcome.keys.url)
      const done = d.jobs.complete(id, owner, {
        url,
        poster: outcome.keys.poster && fileUrl(d.config, outcome.keys.poster),
        thumbnail: outcome.keys.thumbnail && fileUrl(d.config, outcome.keys.thumbnail),
        duration: outcome.duration,
        credits,
        warnings: outcome.warnings,
      })
      if (!done) throw new LeaseLost()
      return true
    })
  } catch (e) {
    if (e instanceof LeaseLost) return false // another worker owns the job now; its result stands
    throw e
  }
  if (completed) d.events.emit('render.complete', d.jobs.get(id)!)
  return completed
}

/**
 * Fails a job (releasing its credit hold) and says so by webhook; a no-op when it already ended. `error` is
 * what was thrown, or the message a remote worker reported.
 */
export function failJob(d: SettleDeps, id: string, owner: string | null, error: unknown, cancelled = false): boolean {
  const message = cancelled ? 'cancelled' : error instanceof Error ? error.message : String(error)
  if (error instanceof Error && !(error instanceof RenderError) && !cancelled) console.error(`[worker] job ${id} failed unexpectedly:`, error)
  d.billing.release(id)
  const failed = d.jobs.fail(id, owner, message)
  if (failed) d.events.emit('render.failed', d.jobs.get(id)!)
  return failed
}
