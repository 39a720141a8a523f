import { defineProviderPlugin, type ProviderPlugin } from '../../core/index.js'
import { boundedSize, fitImage } from './fit-image.js'
import { providerRequest, upstreamError, type HttpOptions } from './http.js'
import { safeJson } from './openai.js'

export interface Automatic1111Options extends HttpOptions {
  /** Your server, e.g. `http://gpu-box:7860`. */
  baseUrl: string
  /** `--api-auth user:password`, when the server uses it. */
  auth?: string
  sampler?: string
}

/** `stable-diffusion` on a self-hosted AUTOMATIC1111-compatible server (`POST /sdapi/v1/txt2img`), on your own GPU. */
export function automatic1111Provider(opts: Automatic1111Options): ProviderPlugin {
  const base = opts.baseUrl.replace(/\/+$/, '')
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    ...(opts.auth ? { authorization: `Basic ${Buffer.from(opts.auth).toString('base64')}` } : {}),
  }
  return defineProviderPlugin({
    kind: 'provider',
    name: 'automatic1111',
    models: ['stable-diffusion'],
    async generate(req, { signal }) {
      const size = boundedSize(req, 64, 2048, 8)
      const body = {
        prompt: req.prompt,
        negative_prompt: req.negativePrompt ?? '',
        steps: req.steps ?? 30,
        width: size.width,
        height: size.height,
        seed: req.seed ?? -1,
        sampler_name: opts.sampler ?? 'Euler a',
        cfg_scale: 7,
        batch_size: 1,
        n_iter: 1,
      }
      const res = await providerRequest('automatic1111', `${base}/sdapi/v1/txt2img`, { method: 'POST', headers, body: JSON.stringify(body), signal }, opts)
      const json = safeJson(res.body) as { images?: string[]; detail?: string; error?: string } | undefined
      if (res.status !== 200 || !json?.images?.[0]) throw upstreamError('automatic1111', res, json?.detail ?? json?.error)
      return {
        data: await fitImage(Buffer.from(json.images[0], 'base64'), req, 'automatic1111'),
        mime: 'image/png',
        provider: 'automatic1111',
        upstreamModel: 'txt2img',
      }
    },
  })
}
