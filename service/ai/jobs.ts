import type { AiProviderPlugin, AiTask } from '../../core/index.js'
import type { Principal } from '../accounts/keys.js'
import type { RateLimiter } from '../accounts/rate-limit.js'
import type { AiJobRecord } from '../api-types.js'
import type { Pricing } from '../billing/pricing.js'
import type { Billing } from '../billing/billing.js'
import type { ServiceConfig } from '../config.js'
import type { Storage } from '../storage/storage.js'
import { checkCallbackUrl, checkTargetUrl, parseBody } from '../lib/validate.js'
import type { Webhooks } from '../webhooks/webhooks.js'
import { WorkPool } from '../lib/work-pool.js'
import { chooseProvider } from './choose.js'
import { executeAiJob } from './execute.js'
import { runKind } from './kinds.js'
import { AI_JOB_SCHEMAS } from './requests.js'
import { type AiJobStore, aiJobRecord } from './store.js'

export interface AiJobDeps {
  config: ServiceConfig
  store: AiJobStore
  storage: Storage
  billing: Billing
  webhooks: Webhooks
  pricing: Pricing
  limiter: RateLimiter
  providers: readonly AiProviderPlugin[]
}
/** The longest one provider call may take (video vendors poll for minutes). */
const JOB_MS = 20 * 60_000

/**
 * `POST /v1/ai/{kind}` jobs: parsed strictly, a provider chosen (sandbox keys: local engines, free), rate
 * limited per key and model (429), the price held (402), then run here in the background — a restart picks
 * up what was left — charged on success, released on failure, with `ai.complete` / `ai.failed` after.
 */
export class AiJobs {
  private readonly pool = new WorkPool(
    () => 2,
    (id) => this.run(id),
  )

  constructor(private readonly d: AiJobDeps) {}

  async submit(p: Principal, kind: keyof typeof AI_JOB_SCHEMAS, body: unknown): Promise<AiJobRecord> {
    const input = parseBody(AI_JOB_SCHEMAS[kind], body) as Record<string, unknown> & { model?: string; callback?: string }
    for (const field of ['src', 'image'] as const) await checkTargetUrl(field, input[field] as string | undefined, this.d.config.network)
    await checkCallbackUrl('callback', input.callback, this.d.config.network)
    const { model } = chooseProvider(this.d.providers, p, kind, input.model)
    this.d.limiter.claim(p.keyId, model)
    const { callback, ...request } = input
    const id = await this.d.store.create(p, kind, model, request, callback)
    try {
      await this.d.billing.hold(p.accountId, id, this.price(p, kind))
    } catch (e) {
      await this.d.store.remove(id) // nothing stays behind a 402
      throw e
    }
    // Read before the pool may pick it up: the answer says what the job is at submit time (queued), not a
    // race with the runner (on PostgreSQL the runner could mark it processing before the read).
    const queued = aiJobRecord((await this.d.store.byId(id))!)
    this.pool.enqueue(id)
    return queued
  }

  async start(): Promise<void> {
    this.pool.start()
    for (const id of await this.d.store.unfinished()) this.pool.enqueue(id)
  }
  stop = (): Promise<void> => this.pool.stop()
  idle = (): Promise<void> => this.pool.idle()

  private price(p: Principal, kind: AiTask): number {
    return p.sandbox ? 0 : (this.d.pricing.ai[kind] ?? 0)
  }

  private async run(id: string): Promise<void> {
    const job = await this.d.store.byId(id)
    if (!job || (job.status !== 'queued' && job.status !== 'processing')) return
    // A Create API asset (service/create/): its own runner resumes it.
    if ('create' in job.request) return
    const kind = job.kind as AiTask
    // A render's asset (for-render.ts) left unfinished by a stopped process: its render failed with it.
    if ('render_id' in job.request) return void (await this.d.billing.release(id), await this.d.store.failed(id, 'the render it was made for stopped'))
    let provider!: AiProviderPlugin
    // Chosen again at run time: a provider gone since submit (a restart with other keys) fails the job like a vendor error.
    const choose = () => (provider = chooseProvider(this.d.providers, job.principal, kind, job.model).provider).name
    const price = this.price(job.principal, kind)
    const work = async (dir: string) => ({
      outcome: await runKind(this.d, job, provider, { signal: AbortSignal.timeout(JOB_MS), workDir: dir }),
      value: undefined,
    })
    await executeAiJob(this.d, { id, accountId: job.principal.accountId, provider: choose, price, label: `${kind} ${id}` }, work, async () => {
      const done = (await this.d.store.byId(id))!
      const balance = await this.d.billing.balance(job.principal.accountId)
      const data = { id, kind: job.kind, status: done.status, url: done.url, credits_used: done.credits_used, wallet_balance: balance }
      const event = done.status === 'complete' ? 'ai.complete' : 'ai.failed'
      // Every front end resumes unfinished AI jobs when it starts: the event is written once per job, whoever ends it.
      await this.d.webhooks.emit(job.principal.accountId, event, done.error ? { ...data, error: done.error } : data, job.callback, {
        sandbox: job.principal.sandbox,
        once: id,
      })
    })
  }
}
