import { randomBytes } from 'node:crypto'
import { type AiProviderPlugin, defineAiProvider, RenderError } from '../../../core/index.js'
import { type HttpOptions, type HttpResponse, moderated, providerRequest, upstreamError, keyRedactor } from '../http.js'
import { safeJson } from '../openai.js'
import { checkVideoRequest, conformClip, imageDataUri, nearestRatio, type PublishImage, pollTask } from './video-clip.js'

export interface RunwayVideoOptions extends HttpOptions {
  /** A Runway API secret (`RUNWAYML_API_SECRET`), sent as `Authorization: Bearer`. */
  apiKey: string
  /** Default `https://api.dev.runwayml.com`. */
  baseUrl?: string
  /** Model for requests with a start image (`POST /v1/image_to_video`); default `gen4_turbo`. */
  imageModel?: string
  /** Model for prompt-only requests (`POST /v1/text_to_video`); default `gen4.5` (gen4_turbo needs an image). */
  textModel?: string
  /** `X-Runway-Version`, default `2024-11-06`. */
  version?: string
  /** First wait between polls (default 5 s: Runway updates a task no more often); it grows to 4×. */
  pollIntervalMs?: number
  /** How long to wait for the task (default 10 min, as Runway's SDK). */
  maxWaitMs?: number
  /** Hosts the start image at an HTTPS URL; default: sent inline as a data URI (Runway takes up to 5 MB). */
  publishImage?: PublishImage
  /** Frame rate of the result (default: the vendor's, 24). */
  fps?: number
}

const IMAGE_RATIOS = ['1280:720', '720:1280', '1104:832', '832:1104', '960:960', '1584:672']
const TEXT_RATIOS = ['1280:720', '720:1280']
const GEN3_RATIOS = ['1280:768', '768:1280']

/**
 * `video` through Runway's API: create a task (`POST /v1/image_to_video` with a start image, else
 * `POST /v1/text_to_video`), poll `GET /v1/tasks/{id}` until SUCCEEDED or FAILED, download `output[0]` (a
 * signed URL, fetched without the key) and make it exactly the requested size and duration. Runway makes
 * whole seconds, 2–10 (gen3a_turbo: 5 or 10); longer requests get the longest clip, slowed to fit. `SAFETY.*`
 * failures are moderation refusals. A task given up on (time-out, cancel) is cancelled upstream, to stop its cost.
 */
export function runwayVideoProvider(opts: RunwayVideoOptions): AiProviderPlugin<'video'> {
  const base = (opts.baseUrl ?? 'https://api.dev.runwayml.com').replace(/\/+$/, '')
  const headers = { authorization: `Bearer ${opts.apiKey}`, 'x-runway-version': opts.version ?? '2024-11-06', accept: 'application/json' }
  const redact = keyRedactor(opts.apiKey)
  const fail = (res: HttpResponse) => {
    const message = (safeJson(res.body)?.error as string | undefined) ?? undefined
    if (res.status === 400 && /moderat|safety|content policy/i.test(message ?? '')) return moderated('runway', redact(message!))
    return upstreamError('runway', res, message && redact(message))
  }
  return defineAiProvider({
    kind: 'ai',
    name: 'runway-video',
    task: 'video',
    models: ['gen4_turbo', 'gen4.5'],
    async run(req, { signal, workDir }) {
      checkVideoRequest(req, 'runway')
      const model = req.image
        ? req.model === 'gen4.5' || req.model === 'gen4_turbo'
          ? req.model
          : (opts.imageModel ?? 'gen4_turbo')
        : req.model === 'gen4.5'
          ? req.model
          : (opts.textModel ?? 'gen4.5')
      const gen3 = model === 'gen3a_turbo'
      const ratio = nearestRatio(gen3 ? GEN3_RATIOS : req.image ? IMAGE_RATIOS : TEXT_RATIOS, req)
      const duration = gen3 ? (req.duration <= 5 ? 5 : 10) : Math.min(10, Math.max(2, Math.ceil(req.duration)))
      const body: Record<string, unknown> = { model, ratio, duration, ...(req.prompt ? { promptText: req.prompt.slice(0, 1000) } : {}) }
      if (req.image)
        body.promptImage = opts.publishImage
          ? await opts.publishImage(req.image, signal)
          : await imageDataUri(req.image, { maxBytes: 5_000_000, workDir, signal })
      const endpoint = req.image ? 'image_to_video' : 'text_to_video'
      const created = await providerRequest(
        'runway',
        `${base}/v1/${endpoint}`,
        { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body), signal },
        opts,
      )
      const id = safeJson(created.body)?.id
      if (created.status !== 200 || typeof id !== 'string') throw fail(created)
      const taskUrl = `${base}/v1/tasks/${encodeURIComponent(id)}`
      let url: string
      try {
        url = await pollTask(
          'runway',
          id,
          async () => {
            const res = await providerRequest('runway', taskUrl, { method: 'GET', headers, signal }, opts)
            if (res.status !== 200) throw fail(res)
            const task = safeJson(res.body) as { status?: string; output?: string[]; failure?: string; failureCode?: string } | undefined
            if (task?.status === 'SUCCEEDED') {
              if (typeof task.output?.[0] !== 'string') throw upstreamError('runway', res, 'SUCCEEDED without an output URL')
              return task.output[0]
            }
            if (task?.status === 'FAILED') {
              const reason = redact(`${task.failure ?? 'no reason given'}${task.failureCode ? ` [${task.failureCode}]` : ''}`)
              if (task.failureCode?.startsWith('SAFETY')) throw moderated('runway', reason)
              const retryable = !!task.failureCode?.startsWith('INTERNAL')
              throw new RenderError('E_PROVIDER_FAILED', `runway: generation failed (${reason})`, { vendor: 'runway', retryable })
            }
            if (task?.status === 'CANCELLED') throw new RenderError('E_PROVIDER_FAILED', `runway: task ${id} was cancelled`, { vendor: 'runway' })
            return undefined // PENDING, THROTTLED, RUNNING
          },
          { signal, intervalMs: opts.pollIntervalMs ?? 5000, maxWaitMs: opts.maxWaitMs ?? 600_000 },
        )
      } catch (e) {
        // Best effort, on its own short deadline: the caller's signal may be the reason we stopped.
        if (e instanceof RenderError && (e.code === 'E_PROVIDER_TIMEOUT' || e.code === 'E_CANCELLED'))
          void providerRequest('runway', taskUrl, { method: 'DELETE', headers, signal: AbortSignal.timeout(5000) }, { ...opts, retries: 0 }).catch(() => {})
        throw e
      }
      const file = await providerRequest('runway', url, { method: 'GET', signal }, opts)
      if (file.status !== 200) throw upstreamError('runway', file, 'cannot download the video')
      return conformClip('runway', file.body, req, { workDir, signal, fps: opts.fps, id: randomBytes(6).toString('hex') })
    },
  })
}
