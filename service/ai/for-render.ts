import { extname } from 'node:path'
import { type AiAnswer, type AiProviderPlugin, type AiRunner, type AiTask, RenderError } from '../../core/index.js'
import type { Principal } from '../accounts/keys.js'
import { ServiceError } from '../errors.js'
import { publicText } from '../public-text.js'
import { materialize } from '../storage/storage.js'
import { inWorkDir } from '../work-dir.js'
import { chooseProvider } from './choose.js'
import type { AiJobDeps } from './jobs.js'

/**
 * The engine for a render's AI asset. As a job would get (sandbox: local, live: a real engine), except that a
 * live key on a server without a vendor for the task gets the free stand-in (the render goes on, with a
 * warning from the asset) instead of a 422 that would fail a whole render for one clip.
 */
function chooseForRender(providers: readonly AiProviderPlugin[], p: Principal, task: AiTask) {
  try {
    return chooseProvider(providers, p, task)
  } catch (e) {
    const standIn = providers.find((x) => x.task === task && x.standIn)
    if (!(e instanceof ServiceError) || !standIn) throw e
    return { provider: standIn, model: standIn.models[0]! }
  }
}

/**
 * The service's `AiRunner`: a render's voice-over or prompted video becomes an AI job of the render's account
 * (listed with the others, its file stored and usable as `src`), rate-limited per key and model, charged from
 * the price table when a vendor makes it — local engines and stand-ins are part of the render's own price —
 * and read back from storage as a local file for the render.
 */
export function aiForRender(d: AiJobDeps): AiRunner {
  return (async (task, ask, ctx) => {
    const owner = ctx.owner as (Principal & { jobId?: string }) | undefined
    if (!owner) throw new RenderError('E_PROVIDER_FAILED', `${ctx.path}: AI assets need an account`, { path: ctx.path })
    const fail = (message: string) => new RenderError('E_PROVIDER_FAILED', `${ctx.path}: ${message}`, { path: ctx.path })
    const { provider, model } = chooseForRender(d.providers, owner, task)
    const price = owner.sandbox || provider.local ? 0 : (d.pricing.ai[task] ?? 0)
    await d.limiter.wait(owner.keyId, model, ctx.signal)
    // What was asked, minus local paths (a start image is the render's file, not the account's business).
    const { image: _image, ...shown } = ask as Record<string, unknown>
    const id = await d.store.create(owner, task, model, { ...shown, render_id: owner.jobId ?? null, clip: ctx.path })
    try {
      await d.wallet.holdAmount(owner.accountId, id, price)
    } catch (e) {
      await d.store.remove(id)
      throw e instanceof ServiceError ? e : fail((e as Error).message) // 402 stays a 402 where an API call asked
    }
    await d.store.processing(id, provider.name)
    try {
      const answer = await inWorkDir(d.config, 'ai-render-', async (workDir) => {
        const request = { ...ask, model } as Parameters<AiProviderPlugin['run']>[0]
        const out = (await provider.run(request, { signal: ctx.signal, workDir })) as AiAnswer<typeof task>
        const file = 'path' in out && typeof out.path === 'string' ? out.path : undefined
        const key = file ? await d.storage.put(`${id}/${id}${extname(file)}`, file) : undefined
        const credits = await d.wallet.charge(owner.accountId, id, price)
        await d.store.complete(id, { key, words: 'words' in out ? out.words : undefined, duration: 'duration' in out ? out.duration : undefined }, credits)
        const local = key ? await materialize(d.storage, key, d.config.cacheDir) : undefined
        return { ...out, ...(local ? { path: local } : {}), standIn: provider.standIn === true }
      })
      return answer
    } catch (e) {
      const message = publicText(e instanceof Error ? e.message : String(e), (full) => console.warn(`[ai] ${task} for ${ctx.path} failed: ${full}`))
      await d.wallet.release(id)
      await d.store.failed(id, message)
      throw e instanceof RenderError && e.code === 'E_CANCELLED' ? e : fail(message)
    }
  }) as AiRunner
}
