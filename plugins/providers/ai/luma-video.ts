import { randomBytes } from 'node:crypto'
import { type AiProviderPlugin, defineAiProvider, RenderError } from '../../../core/index.js'
import { type HttpOptions, type HttpResponse, moderated, providerRequest, upstreamError, keyRedactor } from '../http.js'
import { safeJson } from '../openai.js'
import { checkVideoRequest, conformClip, nearestRatio, type PublishImage, pollTask } from './video-clip.js'

export interface LumaVideoOptions extends HttpOptions {
  /** A Luma API key (`LUMAAI_API_KEY`), sent as `Authorization: Bearer`. */
  apiKey: string
  /** Default `https://api.lumalabs.ai` (a base ending in `/dream-machine/v1`, as the SDK's, works too). */
  baseUrl?: string
  /** Upstream model when the request names none of `ray-2`, `ray-flash-2` (default `ray-2`). */
  model?: string
  /** Default: the smallest of 540p/720p/1080p covering the requested size (4k only when asked for here: it costs more). */
  resolution?: '540p' | '720p' | '1080p' | '4k'
  /** First wait between polls (default 3 s); it grows to 4×. */
  pollIntervalMs?: number
  /** How long to wait for the generation (default 10 min). */
  maxWaitMs?: number
  /** Hosts the start image at a public URL: Luma fetches keyframes by URL and takes no inline images. */
  publishImage?: PublishImage
  /** Frame rate of the result (default: the vendor's, 24). */
  fps?: number
}

const RATIOS = ['16:9', '9:16', '1:1', '4:3', '3:4', '21:9', '9:21']
// Luma's own wording for refused prompts and images ("…not allowed because advanced moderation failed").
const MODERATION = /moderat|not allowed|safety|content policy|nsfw/i

/**
 * `video` through Luma's Dream Machine API: create a generation (`POST /dream-machine/v1/generations/video`,
 * the path of Luma's OpenAPI spec and SDK), poll `GET /dream-machine/v1/generations/{id}` through
 * queued → dreaming → completed | failed, download `assets.video` (fetched without the key) and make it
 * exactly the requested size and duration. Luma makes 5 s or 9 s; longer requests are slowed to fit.
 */
export function lumaVideoProvider(opts: LumaVideoOptions): AiProviderPlugin<'video'> {
  const base = `${(opts.baseUrl ?? 'https://api.lumalabs.ai').replace(/\/+$/, '').replace(/\/dream-machine\/v1$/, '')}/dream-machine/v1`
  const headers = { authorization: `Bearer ${opts.apiKey}`, accept: 'application/json' }
  const redact = keyRedactor(opts.apiKey)
  const fail = (res: HttpResponse) => {
    const detail = safeJson(res.body)?.detail
    const message = typeof detail === 'string' ? redact(detail) : undefined
    if (res.status === 400 && MODERATION.test(message ?? '')) return moderated('luma', message!)
    return upstreamError('luma', res, message)
  }
  return defineAiProvider({
    kind: 'ai',
    name: 'luma-video',
    task: 'video',
    models: ['ray-2', 'ray-flash-2'],
    async run(req, { signal, workDir }) {
      checkVideoRequest(req, 'luma')
      if (req.image && !opts.publishImage)
        throw new RenderError('E_PROVIDER_FAILED', 'luma: a start image needs `publishImage` (Luma fetches keyframes from a public URL)', { vendor: 'luma' })
      const short = Math.min(req.width, req.height)
      const body = {
        generation_type: 'video',
        model: req.model === 'ray-2' || req.model === 'ray-flash-2' ? req.model : (opts.model ?? 'ray-2'),
        prompt: req.prompt ?? '',
        aspect_ratio: nearestRatio(RATIOS, req),
        duration: req.duration <= 5 ? '5s' : '9s',
        resolution: opts.resolution ?? (short <= 540 ? '540p' : short <= 720 ? '720p' : '1080p'),
        ...(req.image ? { keyframes: { frame0: { type: 'image', url: await opts.publishImage!(req.image, signal) } } } : {}),
      }
      const created = await providerRequest(
        'luma',
        `${base}/generations/video`,
        { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body), signal },
        opts,
      )
      const id = safeJson(created.body)?.id
      if ((created.status !== 201 && created.status !== 200) || typeof id !== 'string') throw fail(created)
      const url = await pollTask(
        'luma',
        id,
        async () => {
          const res = await providerRequest('luma', `${base}/generations/${encodeURIComponent(id)}`, { method: 'GET', headers, signal }, opts)
          if (res.status !== 200) throw fail(res)
          const gen = safeJson(res.body) as { state?: string; failure_reason?: string | null; assets?: { video?: string } | null } | undefined
          if (gen?.state === 'completed') {
            if (typeof gen.assets?.video !== 'string') throw upstreamError('luma', res, 'completed without a video URL')
            return gen.assets.video
          }
          if (gen?.state === 'failed') {
            const reason = redact(gen.failure_reason ?? 'no reason given')
            if (MODERATION.test(reason)) throw moderated('luma', reason)
            throw new RenderError('E_PROVIDER_FAILED', `luma: generation failed (${reason})`, { vendor: 'luma' })
          }
          return undefined // queued, dreaming
        },
        { signal, intervalMs: opts.pollIntervalMs ?? 3000, maxWaitMs: opts.maxWaitMs ?? 600_000 },
      )
      const file = await providerRequest('luma', url, { method: 'GET', signal }, opts)
      if (file.status !== 200) throw upstreamError('luma', file, 'cannot download the video')
      return conformClip('luma', file.body, req, { workDir, signal, fps: opts.fps, id: randomBytes(6).toString('hex') })
    },
  })
}
