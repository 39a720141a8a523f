import type { Principal } from '../accounts/keys.js'
import { executeAiJob } from '../ai/execute.js'
import type { AiJob } from '../ai/store.js'
import { ServiceError } from '../errors.js'
import { checkTargetUrl } from '../lib/validate.js'
import { WorkPool } from '../lib/work-pool.js'
import { chooseEngine, type CreateDeps, type Engine } from './engine.js'
import { type CreateRequest, parseCreateRequest } from './request.js'
import { makeAsset } from './run.js'

/** A generated asset as Shotstack's Create API shows it (`GeneratedAssetResponseData`'s parts). */
export interface GeneratedAsset {
  id: string
  owner: string
  provider: string
  type: string
  status: 'queued' | 'processing' | 'done' | 'failed'
  url: string | null
  error: string | null
  created: string
  updated: string
}

/** The longest one asset may take (avatar vendors render for minutes). */
const ASSET_MS = 30 * 60_000
const STATUS = { queued: 'queued', processing: 'processing', complete: 'done', failed: 'failed' } as const

/**
 * Shotstack's Create API (`POST /create/{env}/assets`, `GET …/assets/{id}`) over the AI jobs' store and billing:
 * each asset is an AI job row (its request keeps the provider, type and options), rate limited per key and model
 * (429), its price held (402), made in the background on its engine (engine.ts) — a restart picks up what was
 * left — then charged and done, or released and failed, with `ai.complete` / `ai.failed` after, as /v1's jobs.
 */
export class GeneratedAssets {
  private readonly pool = new WorkPool(
    () => 2,
    (id) => this.run(id),
  )

  constructor(private readonly d: CreateDeps) {}

  async submit(p: Principal, body: unknown): Promise<GeneratedAsset> {
    const req = parseCreateRequest(body)
    if (req.type === 'image-to-video') await checkTargetUrl('options.imageUrl', req.options.imageUrl, this.d.config.network)
    const engine = chooseEngine(this.d, p, req)
    this.d.limiter.claim(p.keyId, engine.model)
    const id = await this.d.store.create(p, engine.kind, engine.model, { create: { provider: req.provider, type: req.type }, options: req.options })
    try {
      await this.d.billing.hold(p.accountId, id, engine.price)
    } catch (e) {
      await this.d.store.remove(id) // nothing stays behind a 402
      throw e
    }
    const queued = asAsset((await this.d.store.byId(id))!)
    this.pool.enqueue(id)
    return queued
  }

  /** The caller's own asset, made in the caller's environment; any other id is a 404. */
  async get(p: Principal, id: string): Promise<GeneratedAsset> {
    const job = /^[0-9a-f-]{36}$/i.test(id) ? await this.d.store.byId(id) : undefined
    if (!job || !('create' in job.request) || job.principal.accountId !== p.accountId || job.principal.sandbox !== p.sandbox)
      throw new ServiceError('E_NOT_FOUND', `no generated asset ${id}`)
    return asAsset(job)
  }

  async start(): Promise<void> {
    this.pool.start()
    for (const id of await this.d.store.unfinished()) if ('create' in ((await this.d.store.byId(id))?.request ?? {})) this.pool.enqueue(id)
  }
  stop = (): Promise<void> => this.pool.stop()
  idle = (): Promise<void> => this.pool.idle()

  private async run(id: string): Promise<void> {
    const job = await this.d.store.byId(id)
    if (!job || (job.status !== 'queued' && job.status !== 'processing')) return
    const req = requestOf(job)
    let engine!: Engine
    // Chosen again at run time: a vendor gone since submit (a restart without its key) fails the asset like a vendor error.
    const choose = () => {
      engine = chooseEngine(this.d, job.principal, req)
      return engine.kind === 'image' ? engine.image.name : engine.ai.name
    }
    const label = `${req.provider}/${req.type} ${id}`
    let price = 0
    try {
      price = chooseEngine(this.d, job.principal, req).price
    } catch {
      // `choose` below throws the same, which fails the asset and releases its hold
    }
    const work = async (workDir: string) => ({
      outcome: await makeAsset(this.d, id, req, engine, { signal: AbortSignal.timeout(ASSET_MS), workDir }),
      value: undefined,
    })
    await executeAiJob(this.d, { id, accountId: job.principal.accountId, provider: choose, price, label }, work, async () => {
      const done = (await this.d.store.byId(id))!
      const data = { id, kind: done.kind, provider: req.provider, type: req.type, status: done.status, url: done.url, credits_used: done.credits_used }
      await this.d.webhooks.emit(
        job.principal.accountId,
        done.status === 'complete' ? 'ai.complete' : 'ai.failed',
        done.error ? { ...data, error: done.error } : data,
        null,
        // Every front end resumes unfinished assets when it starts: the event is written once per asset.
        { sandbox: job.principal.sandbox, once: id },
      )
    })
  }
}

const requestOf = (job: AiJob): CreateRequest => {
  const { create, options } = job.request as { create: { provider: string; type: string }; options: object }
  return { ...create, options } as CreateRequest
}

function asAsset(job: AiJob): GeneratedAsset {
  const { provider, type } = requestOf(job)
  const status = STATUS[job.status]
  return {
    id: job.id,
    owner: job.principal.accountId,
    provider,
    type,
    status,
    url: status === 'done' ? job.url : null,
    error: job.error,
    created: job.created_at,
    updated: job.updated_at,
  }
}
