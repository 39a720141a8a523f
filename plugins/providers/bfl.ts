import { defineProviderPlugin, RenderError, type ProviderPlugin } from '../../core/index.js'
import { boundedSize, fitImage } from './fit-image.js'
import { moderated, providerRequest, upstreamError, type HttpOptions } from './http.js'
import { safeJson } from './openai.js'

export interface BflOptions extends HttpOptions {
  apiKey: string
  /** Default `https://api.bfl.ai` (also api.eu.bfl.ai, api.us.bfl.ai). */
  baseUrl?: string
  /** Default `flux-pro-1.1`. */
  model?: string
  pollIntervalMs?: number
  /** How long to wait for `Ready` before giving up (default 120 s). */
  maxWaitMs?: number
}

/**
 * `flux` through Black Forest Labs: submit `POST /v1/<model>` with the `x-key` header, poll the returned
 * `polling_url` until `Ready`, download `result.sample`. Moderation statuses become a clear refusal. BFL has
 * no negative prompt; one is folded into the prompt as an explicit "avoid" clause.
 */
export function bflProvider(opts: BflOptions): ProviderPlugin {
  const base = (opts.baseUrl ?? 'https://api.bfl.ai').replace(/\/+$/, '')
  const model = opts.model ?? 'flux-pro-1.1'
  const headers = { 'x-key': opts.apiKey, accept: 'application/json' }
  return defineProviderPlugin({
    kind: 'provider',
    name: 'bfl',
    models: ['flux'],
    async generate(req, { signal }) {
      const size = boundedSize(req, 256, 1440, 32)
      const prompt = req.negativePrompt ? `${req.prompt}\n\nAvoid: ${req.negativePrompt}` : req.prompt
      const body = {
        prompt,
        width: size.width,
        height: size.height,
        output_format: 'png',
        prompt_upsampling: false,
        safety_tolerance: 2,
        ...(req.seed !== undefined ? { seed: req.seed } : {}),
      }
      const submit = await providerRequest(
        'bfl',
        `${base}/v1/${model}`,
        { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body), signal },
        opts,
      )
      const task = safeJson(submit.body) as { id?: string; polling_url?: string; detail?: string | Array<{ msg?: string; loc?: unknown[] }> } | undefined
      if (submit.status !== 200 || !task?.id) throw upstreamError('bfl', submit, detailOf(task?.detail))
      const pollUrl = task.polling_url ?? `${base}/v1/get_result?id=${encodeURIComponent(task.id)}`
      const deadline = Date.now() + (opts.maxWaitMs ?? 120_000)
      for (;;) {
        if (Date.now() > deadline)
          throw new RenderError('E_PROVIDER_TIMEOUT', `bfl: task ${task.id} not ready after ${(opts.maxWaitMs ?? 120_000) / 1000} s`, { vendor: 'bfl' })
        await new Promise((r) => setTimeout(r, opts.pollIntervalMs ?? 500))
        const poll = await providerRequest('bfl', pollUrl, { method: 'GET', headers, signal }, opts)
        const result = safeJson(poll.body) as { status?: string; result?: { sample?: string }; details?: unknown } | undefined
        if (poll.status !== 200) throw upstreamError('bfl', poll, result?.status)
        switch (result?.status) {
          case 'Ready': {
            if (!result.result?.sample) throw upstreamError('bfl', poll, 'Ready without a sample URL')
            // The sample is a signed URL on a delivery host: fetched without our key.
            const image = await providerRequest('bfl', result.result.sample, { method: 'GET', signal }, opts)
            if (image.status !== 200) throw upstreamError('bfl', image, 'cannot download the sample')
            return { data: await fitImage(image.body, req, 'bfl'), mime: 'image/png', provider: 'bfl', upstreamModel: model }
          }
          case 'Pending':
          case undefined:
            continue
          case 'Request Moderated':
          case 'Content Moderated':
            throw moderated('bfl', result.status)
          case 'Task not found':
            throw new RenderError('E_PROVIDER_FAILED', `bfl: task ${task.id} not found`, { vendor: 'bfl' })
          default:
            throw new RenderError(
              'E_PROVIDER_FAILED',
              `bfl: generation failed (${result?.status}${result?.details ? `: ${JSON.stringify(result.details).slice(0, 200)}` : ''})`,
              { vendor: 'bfl' },
            )
        }
      }
    },
  })
}

/** BFL's `detail`: a string, or FastAPI's list of `{loc, msg}` validation errors. */
function detailOf(detail: string | Array<{ msg?: string; loc?: unknown[] }> | undefined): string | undefined {
  if (typeof detail === 'string') return detail
  return detail?.map((d) => `${(d.loc ?? []).join('.')}: ${d.msg}`).join('; ')
}
