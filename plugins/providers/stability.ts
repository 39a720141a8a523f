import { defineProviderPlugin, type ProviderPlugin } from '../../core/index.js'
import { fitImage, nearestAspect } from './fit-image.js'
import { undici } from '../lib/net/undici.js'
import { moderated, providerRequest, upstreamError, type HttpOptions } from './http.js'
import { safeJson } from './openai.js'

export interface StabilityOptions extends HttpOptions {
  apiKey: string
  /** Default `https://api.stability.ai`. */
  baseUrl?: string
  /**
   * `v1` (default): JSON `text-to-image` on an engine — honours `steps` and negative prompts (as a
   * negatively weighted text prompt). `v2beta`: multipart `stable-image/generate/<service>`, raw image bytes
   * back; it has no `steps`.
   */
  api?: 'v1' | 'v2beta'
  /** v1 engine, default `stable-diffusion-xl-1024-v1-0`. */
  engine?: string
  /** v2beta service: `core` (default), `sd3`, `ultra`. */
  service?: string
}

/** SDXL 1.0's allowed dimensions. */
const SDXL = [
  [1024, 1024],
  [1152, 896],
  [896, 1152],
  [1216, 832],
  [832, 1216],
  [1344, 768],
  [768, 1344],
  [1536, 640],
  [640, 1536],
].map(([width, height]) => ({ width: width!, height: height! }))
const ASPECTS = ['16:9', '1:1', '21:9', '2:3', '3:2', '4:5', '5:4', '9:16', '9:21']

/** `stable-diffusion` through Stability AI's REST API (Bearer key). `style: "artistic"` uses the `digital-art` preset. */
export function stabilityProvider(opts: StabilityOptions): ProviderPlugin {
  const base = (opts.baseUrl ?? 'https://api.stability.ai').replace(/\/+$/, '')
  const auth = { authorization: `Bearer ${opts.apiKey}` }
  return defineProviderPlugin({
    kind: 'provider',
    name: 'stability',
    models: ['stable-diffusion'],
    async generate(req, { signal }) {
      if ((opts.api ?? 'v1') === 'v2beta') {
        const service = opts.service ?? 'core'
        // undici's own FormData: Node's global one comes from another undici copy and is not accepted.
        const form = new (undici().FormData)()
        form.set('prompt', req.prompt)
        if (req.negativePrompt) form.set('negative_prompt', req.negativePrompt)
        form.set('aspect_ratio', nearestRatio(req))
        form.set('output_format', 'png')
        if (req.seed !== undefined) form.set('seed', String(req.seed))
        if (req.preset || req.style === 'artistic') form.set('style_preset', req.preset ?? 'digital-art')
        const res = await providerRequest(
          'stability',
          `${base}/v2beta/stable-image/generate/${service}`,
          { method: 'POST', headers: { ...auth, accept: 'image/*' }, body: form, signal },
          opts,
        )
        if (res.status !== 200) throw upstreamError('stability', res, errorMessage(res.body))
        if (String(res.headers['finish-reason'] ?? '') === 'CONTENT_FILTERED') throw moderated('stability', 'CONTENT_FILTERED')
        return { data: await fitImage(res.body, req, 'stability'), mime: 'image/png', provider: 'stability', upstreamModel: service }
      }
      const engine = req.engine ?? opts.engine ?? 'stable-diffusion-xl-1024-v1-0'
      const size = nearestAspect(SDXL, req)
      const body = {
        text_prompts: [{ text: req.prompt, weight: 1 }, ...(req.negativePrompt ? [{ text: req.negativePrompt, weight: -1 }] : [])],
        width: size.width,
        height: size.height,
        steps: req.steps ?? 30,
        cfg_scale: req.guidance ?? 7,
        samples: 1,
        ...(req.seed !== undefined ? { seed: req.seed } : {}),
        ...(req.preset ? { style_preset: req.preset } : req.style === 'artistic' ? { style_preset: 'digital-art' } : {}),
      }
      const res = await providerRequest(
        'stability',
        `${base}/v1/generation/${engine}/text-to-image`,
        { method: 'POST', headers: { ...auth, accept: 'application/json', 'content-type': 'application/json' }, body: JSON.stringify(body), signal },
        opts,
      )
      if (res.status !== 200) throw upstreamError('stability', res, errorMessage(res.body))
      const artifact = (safeJson(res.body)?.artifacts as Array<{ base64?: string; finishReason?: string }> | undefined)?.[0]
      if (artifact?.finishReason === 'CONTENT_FILTERED') throw moderated('stability', 'CONTENT_FILTERED')
      if (!artifact?.base64 || artifact.finishReason === 'ERROR')
        throw upstreamError('stability', res, `generation failed (${artifact?.finishReason ?? 'no artifact'})`)
      return { data: await fitImage(Buffer.from(artifact.base64, 'base64'), req, 'stability'), mime: 'image/png', provider: 'stability', upstreamModel: engine }
    },
  })
}

const errorMessage = (body: Buffer) => {
  const j = safeJson(body) as { message?: string; name?: string; errors?: string[] } | undefined
  return j?.message ?? j?.errors?.join('; ') ?? j?.name
}

function nearestRatio(size: { width: number; height: number }): string {
  const target = Math.log(size.width / size.height)
  const ratio = (r: string) => Math.log(Number(r.split(':')[0]) / Number(r.split(':')[1]))
  return [...ASPECTS].sort((a, b) => Math.abs(ratio(a) - target) - Math.abs(ratio(b) - target))[0]!
}
