import { extname } from 'node:path'
import { type AiAnswer, type AiProviderPlugin, type AiRunner, RenderError } from '../../core/index.js'
import type { Principal } from '../accounts/keys.js'
import { ServiceError } from '../errors.js'
import { publicText } from '../lib/public-text.js'
import { materialize } from '../storage/storage.js'
import { chooseProvider } from './choose.js'
import { executeAiJob } from './execute.js'
import type { AiJobDeps } from './jobs.js'
import { logger } from '../log.js'

const log = logger('ai')

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
    // The clip's failure in public words, keeping what the engine's error said it was: a time-out stays a time-out
    // (504 where an API call asked) and a content refusal stays `moderated` (422), not a plain vendor failure (502).
    const fail = (message: string, cause?: unknown) => {
      const timeout = cause instanceof RenderError && cause.code === 'E_PROVIDER_TIMEOUT'
      const moderated = cause instanceof RenderError && cause.data?.moderated === true
      return new RenderError(timeout ? 'E_PROVIDER_TIMEOUT' : 'E_PROVIDER_FAILED', `${ctx.path}: ${message}`, {
        path: ctx.path,
        ...(moderated && { moderated }),
      })
    }
    // As a job would get, except that a live key without a vendor for the task gets the free stand-in (the render
    // goes on, with a warning from the asset) instead of a 422 that would fail a whole render for one clip.
    const { provider, model } = chooseProvider(d.providers, owner, task, undefined, { standIn: true })
    const price = owner.sandbox || provider.local ? 0 : (d.pricing.ai[task] ?? 0)
    // A render's clip waits for a slot (failing the render for a busy minute would waste it); a caller asking
    // directly (the storyboard: no render job) is answered 429 with Retry-After, as every API call over its limit.
    if (owner.jobId) await d.limiter.wait(owner.keyId, model, ctx.signal)
    else d.limiter.claim(owner.keyId, model)
    // What was asked, minus local paths (a start image is the render's file, not the account's business).
    const { image: _image, ...shown } = ask as Record<string, unknown>
    const id = await d.store.create(owner, task, model, { ...shown, render_id: owner.jobId ?? null, clip: ctx.path })
    try {
      await d.billing.hold(owner.accountId, id, price)
    } catch (e) {
      await d.store.remove(id)
      throw e instanceof ServiceError ? e : fail((e as Error).message) // 402 stays a 402 where an API call asked
    }
    const ran = await executeAiJob(
      d,
      { id, accountId: owner.accountId, provider: () => provider.name, price, label: `${task} for ${ctx.path}` },
      async (workDir) => {
        const request = { ...ask, model } as Parameters<AiProviderPlugin['run']>[0]
        const out = (await provider.run(request, { signal: ctx.signal, workDir })) as AiAnswer<typeof task>
        const file = 'path' in out && typeof out.path === 'string' ? out.path : undefined
        const key = file ? await d.storage.put(`${id}/${id}${extname(file)}`, file) : undefined
        return { outcome: { key, words: 'words' in out ? out.words : undefined, duration: 'duration' in out ? out.duration : undefined }, value: { out, key } }
      },
    )
    if (!ran.ok) throw ran.error instanceof RenderError && ran.error.code === 'E_CANCELLED' ? ran.error : fail(ran.message, ran.error)
    // Read back once stored and charged: the render draws the stored file, as any later render of its URL would.
    // A storage fault reads back as the clip's provider failure, in public words (no storage paths).
    const readBack = (key: string) =>
      materialize(d.storage, key, d.config.cacheDir).catch((e: Error) => {
        throw fail(publicText(e.message, (full) => log.warn(`${task} for ${ctx.path}: reading back failed: ${full}`)))
      })
    const local = ran.value.key ? await readBack(ran.value.key) : undefined
    return { ...ran.value.out, ...(local ? { path: local } : {}), standIn: provider.standIn === true }
  }) as AiRunner
}
