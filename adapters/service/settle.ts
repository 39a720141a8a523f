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
export async function completeJob(d: SettleDeps, id: string, owner: string, outcome: RenderOutcome): Promise<boolean> {
  let completed = false
  try {
    completed = await d.jobs.transaction(async () => {
      if (await d.jobs.cancelRequested(id)) return false
      const credits = await d.billing.settle(id, { seconds: outcome.duration, width: outcome.width, height: outcome.height })
      const url = fileUrl(d.config, outcome.keys.url)
      const done = await d.jobs.complete(id, owner, {
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
  if (completed) await d.events.emit('render.complete', (await d.jobs.get(id))!)
  return completed
}

/**
 * Fails a job (releasing its credit hold) and says so by webhook; a no-op when it already ended. `error` is
 * what was thrown, or the message a remote worker reported.
 */
export async function failJob(d: SettleDeps, id: string, owner: string | null, error: unknown, cancelled = false): Promise<boolean> {
  const message = cancelled ? 'cancelled' : error instanceof Error ? error.message : String(error)
  if (error instanceof Error && !(error instanceof RenderError) && !cancelled) console.error(`[worker] job ${id} failed unexpectedly:`, error)
  // The failure and the release of the hold commit together (a crash between them loses neither).
  const failed = await d.jobs.transaction(async () => {
    const ok = await d.jobs.fail(id, owner, message)
    if (ok) await d.billing.release(id)
    return ok
  })
  if (failed) await d.events.emit('render.failed', (await d.jobs.get(id))!)
  return failed
}
