import { RenderError } from '../../core/index.js'
import type { Billing } from '../billing/billing.js'
import type { ServiceConfig } from '../config.js'
import { publicText } from '../lib/public-text.js'
import { inWorkDir } from '../lib/work-dir.js'
import type { AiJobStore, AiOutcome } from './store.js'
import { logger } from '../log.js'

const log = logger('ai')

type Deps = { config: ServiceConfig; store: AiJobStore; billing: Billing }

/** How one run ended: the work's value, or the message stored on the job (public: no paths, no secrets). */
export type Executed<T> = { ok: true; value: T } | { ok: false; error: unknown; message: string }

/**
 * The one run of an AI job with its price already held, for API jobs (jobs.ts) and a render's assets
 * (for-render.ts) alike: marked processing by `provider`, the work done in a scratch folder, then charged and
 * completed — or the hold released and the job failed with a public message (a content-policy refusal says so).
 * `ended` (the job's webhook) runs in the transaction that ends the job, so the ending and its event commit
 * together: a crash cannot keep one without the other. A failure to read or write the event is logged, as render
 * events' are (the whole event is a savepoint: the ending still commits).
 */
export async function executeAiJob<T>(
  d: Deps,
  /** `provider` names the engine as the run starts (a choice that throws fails the job like its engine would). */
  job: { id: string; accountId: string; provider: () => string; price: number; label: string },
  work: (workDir: string) => Promise<{ outcome: AiOutcome; value: T }>,
  ended: () => Promise<unknown> = async () => {},
): Promise<Executed<T>> {
  try {
    await d.store.processing(job.id, job.provider())
    const { outcome, value } = await inWorkDir(d.config, 'ai-', work)
    await d.store.transaction(async () => {
      const credits = await d.billing.charge(job.accountId, job.id, job.price)
      await d.store.complete(job.id, outcome, credits)
      await announce(d.store, job.label, ended)
    })
    return { ok: true, value }
  } catch (error) {
    const text = publicText(error instanceof Error ? error.message : String(error), (full) => log.warn(`${job.label} failed: ${full}`))
    const message = error instanceof RenderError && error.data?.moderated ? `refused by the provider's content policy: ${text}` : text
    await d.store.transaction(async () => {
      await d.billing.release(job.id)
      await d.store.failed(job.id, message)
      await announce(d.store, job.label, ended)
    })
    return { ok: false, error, message }
  }
}

/** The event as a savepoint: a failed read or write in it is logged and leaves the ending to commit. */
const announce = (store: AiJobStore, label: string, ended: () => Promise<unknown>) =>
  store.savepoint(ended).catch((e) => log.error(`${label}: its event could not be written:`, e))
