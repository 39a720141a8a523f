import { type AiProviderPlugin, defineAiProvider, RenderError } from '../../../core/index.js'
import { type HttpOptions, type HttpResponse, keyRedactor, moderated, providerRequest, upstreamError } from '../http.js'
import { safeJson } from '../openai.js'
import { keepTalkingClip, once, resolveByName } from './avatar-clip.js'
import { pollTask } from './video-clip.js'

export interface DidAvatarOptions extends HttpOptions {
  /** The key from D-ID Studio, sent as it is given after `Authorization: Basic`. */
  apiKey: string
  /** Default `https://api.d-id.com`. */
  baseUrl?: string
  /** Avatar names → presenter ids, in place of looking them up in `GET /clips/presenters`. */
  presenters?: Record<string, string>
  /** First wait between polls (default 3 s); it grows to 4×. */
  pollIntervalMs?: number
  /** How long to wait for the clip (default 10 min). */
  maxWaitMs?: number
}

type Clip = { status?: string; result_url?: string; error?: { kind?: string; description?: string } }

/**
 * `avatar` through D-ID's Clips API (the presenters Shotstack names — `jack`, `lana`, `lily`, `matt`, `rian` — are
 * D-ID's Premium presenters, and a clip's `background.color` is what Shotstack's `background` sets; a Talk animates
 * a photo and has no background): the presenter found by name in `GET /clips/presenters` (ids `jack-Pt27VkP3hW`),
 * `POST /clips` with the text as a text script in the presenter's own voice, `GET /clips/{id}` until `done`
 * (or `error` / `rejected`), then the mp4 at `result_url`. Errors are `{kind, description}`.
 */
export function didAvatarProvider(opts: DidAvatarOptions): AiProviderPlugin<'avatar'> {
  const base = (opts.baseUrl ?? 'https://api.d-id.com').replace(/\/+$/, '')
  const headers = { authorization: `Basic ${opts.apiKey}`, accept: 'application/json' }
  const redact = keyRedactor(opts.apiKey)
  const fail = (res: HttpResponse) => {
    const j = safeJson(res.body) as { kind?: string; description?: string } | undefined
    const message = j?.description && redact(`${j.description}${j.kind ? ` (${j.kind})` : ''}`)
    if (res.status === 451 || /moderat/i.test(j?.kind ?? '')) return moderated('d-id', message ?? `HTTP ${res.status}`)
    return upstreamError('d-id', res, message)
  }
  const get = async (path: string, signal: AbortSignal) => {
    const res = await providerRequest('d-id', `${base}${path}`, { method: 'GET', headers, signal }, opts)
    if (res.status !== 200) throw fail(res)
    return safeJson(res.body)
  }
  const presenters = once(async () => {
    const listed = (await get('/clips/presenters', AbortSignal.timeout(60_000)))?.presenters as Array<{ presenter_id?: string; name?: string }> | undefined
    return (listed ?? []).filter((p) => typeof p.presenter_id === 'string').map((p) => ({ id: p.presenter_id!, name: p.name }))
  })
  return defineAiProvider({
    kind: 'ai',
    name: 'did-avatar',
    task: 'avatar',
    models: ['d-id-clips'],
    async run(req, { signal, workDir }) {
      const presenterId = await resolveByName('d-id', 'avatar', req.avatar, {
        configured: opts.presenters,
        isId: (s) => /^[a-z]+-[\w]{6,}$|^v2_/.test(s),
        list: presenters,
      })
      const body = {
        presenter_id: presenterId,
        script: { type: 'text', input: req.text },
        ...(req.background ? { background: { color: req.background } } : {}),
        config: { result_format: 'mp4' },
      }
      const created = await providerRequest(
        'd-id',
        `${base}/clips`,
        { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body), signal },
        opts,
      )
      const id = safeJson(created.body)?.id
      if (created.status !== 201 || typeof id !== 'string') throw fail(created)
      const url = await pollTask(
        'd-id',
        id,
        async () => {
          const clip = (await get(`/clips/${encodeURIComponent(id)}`, signal)) as Clip | undefined
          if (clip?.status === 'done') {
            if (typeof clip.result_url !== 'string')
              throw new RenderError('E_PROVIDER_FAILED', `d-id: clip ${id} is done without a result_url`, { vendor: 'd-id' })
            return clip.result_url
          }
          if (clip?.status === 'rejected') throw moderated('d-id', redact(clip.error?.description ?? 'rejected'))
          if (clip?.status === 'error')
            throw new RenderError('E_PROVIDER_FAILED', `d-id: the clip failed (${redact(clip.error?.description ?? clip.error?.kind ?? 'no reason given')})`, {
              vendor: 'd-id',
            })
          return undefined // created, started
        },
        { signal, intervalMs: opts.pollIntervalMs ?? 3000, maxWaitMs: opts.maxWaitMs ?? 600_000 },
      )
      return keepTalkingClip('d-id', url, { ...opts, workDir, signal })
    },
  })
}
