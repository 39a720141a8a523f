import { defineProviderPlugin, type ProviderPlugin } from '../../core/index.js'
import { fitImage, nearestAspect } from './fit-image.js'
import { moderated, providerRequest, upstreamError, type HttpOptions } from './http.js'

export interface OpenAIOptions extends HttpOptions {
  apiKey: string
  /** Default `https://api.openai.com`. */
  baseUrl?: string
  /**
   * The upstream model behind the public `dall-e-3`. OpenAI removed dall-e-3 from its API, so this is
   * configurable (e.g. `gpt-image-1`); the request adapts to the model family.
   */
  model?: string
  /** dall-e-3 `standard` | `hd`. */
  quality?: string
}

const DALLE_SIZES = [
  { width: 1024, height: 1024 },
  { width: 1792, height: 1024 },
  { width: 1024, height: 1792 },
]
const GPT_IMAGE_SIZES = [
  { width: 1024, height: 1024 },
  { width: 1536, height: 1024 },
  { width: 1024, height: 1536 },
]

/**
 * `dall-e-3` through the OpenAI Images API (`POST /v1/images/generations`, Bearer key). The image is
 * generated at the model's size nearest the requested aspect, then scaled and cropped to the exact size.
 */
export function openaiProvider(opts: OpenAIOptions): ProviderPlugin {
  const base = (opts.baseUrl ?? 'https://api.openai.com').replace(/\/+$/, '')
  const model = opts.model ?? 'dall-e-3'
  const dalle = model.startsWith('dall-e')
  return defineProviderPlugin({
    kind: 'provider',
    name: 'openai',
    models: ['dall-e-3'],
    async generate(req, { signal }) {
      const size = nearestAspect(dalle ? DALLE_SIZES : GPT_IMAGE_SIZES, req)
      const body = {
        model,
        prompt: req.prompt,
        n: 1,
        size: `${size.width}x${size.height}`,
        // dall-e models take these; GPT image models always answer base64 and have no style.
        ...(dalle
          ? { response_format: 'b64_json', style: req.style === 'vivid' ? 'vivid' : 'natural', ...(opts.quality ? { quality: opts.quality } : {}) }
          : { output_format: 'png' }),
      }
      const res = await providerRequest(
        'openai',
        `${base}/v1/images/generations`,
        { method: 'POST', headers: { authorization: `Bearer ${opts.apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body), signal },
        opts,
      )
      const json = safeJson(res.body)
      if (res.status !== 200) {
        const error = json?.error as { message?: string; code?: string } | undefined
        if (error?.code === 'content_policy_violation' || /safety system|content policy/i.test(error?.message ?? ''))
          throw moderated('openai', error?.message ?? 'content policy')
        throw upstreamError('openai', res, error?.message)
      }
      const item = (json?.data as Array<{ b64_json?: string; url?: string; revised_prompt?: string }> | undefined)?.[0]
      let bytes: Uint8Array
      if (item?.b64_json) bytes = Buffer.from(item.b64_json, 'base64')
      else if (item?.url) bytes = (await providerRequest('openai', item.url, { method: 'GET', signal }, opts)).body
      else throw upstreamError('openai', res, 'the answer holds no image')
      return { data: await fitImage(bytes, req, 'openai'), mime: 'image/png', provider: 'openai', upstreamModel: model, revisedPrompt: item.revised_prompt }
    },
  })
}

function safeJson(body: Buffer): Record<string, unknown> | undefined {
  try {
    return JSON.parse(body.toString('utf8'))
  } catch {
    return undefined
  }
}
export { safeJson }
