import { type AiProviderPlugin, defineAiProvider, RenderError } from '../../../core/index.js'
import { type HttpOptions, type HttpResponse, keyRedactor, moderated, providerRequest, upstreamError } from '../http.js'
import { safeJson } from '../openai.js'
import { keepTalkingClip, once, resolveByName } from './avatar-clip.js'
import { pollTask } from './video-clip.js'

export interface HeygenAvatarOptions extends HttpOptions {
  /** Sent as `X-Api-Key`. */
  apiKey: string
  /** Default `https://api.heygen.com`. */
  baseUrl?: string
  /** Avatar names → avatar ids, in place of looking them up in `GET /v2/avatars`. */
  avatars?: Record<string, string>
  /** Voice names (`Abbi - Natural`) → voice ids, in place of looking them up in `GET /v2/voices`. */
  voices?: Record<string, string>
  /** First wait between polls (default 5 s); it grows to 4×. */
  pollIntervalMs?: number
  /** How long to wait for the video (default 20 min: HeyGen renders take minutes). */
  maxWaitMs?: number
}

type Status = { status?: string; video_url?: string | null; error?: { code?: number | string; message?: string; detail?: string } | null }
const HEX_ID = /^[0-9a-f]{32}$/

/**
 * `avatar` through HeyGen's API: the avatar and voice found by name (`GET /v2/avatars`, `GET /v2/voices`), one
 * scene sent to `POST /v2/video/generate` — `character` with `avatar_style` (`normal` / `circle`), `voice` of type
 * `text`, a `color` background — at 1280×720 (9:16: 720×1280), with `test` for HeyGen's free watermarked renders;
 * then `GET /v1/video_status.get?video_id=` until `completed` (or `failed`, with `error.detail`), and the mp4 at
 * `video_url`. Answers are `{error, data}` (v2) and `{code, data, message}` (v1).
 */
export function heygenAvatarProvider(opts: HeygenAvatarOptions): AiProviderPlugin<'avatar'> {
  const base = (opts.baseUrl ?? 'https://api.heygen.com').replace(/\/+$/, '')
  const headers = { 'x-api-key': opts.apiKey, accept: 'application/json' }
  const redact = keyRedactor(opts.apiKey)
  const fail = (res: HttpResponse) => {
    const e = safeJson(res.body)?.error as { code?: string; message?: string } | string | undefined
    const message = typeof e === 'string' ? e : e?.message
    return upstreamError('heygen', res, message && redact(`${message}${typeof e === 'object' && e.code ? ` (${e.code})` : ''}`))
  }
  const get = async (path: string, signal: AbortSignal) => {
    const res = await providerRequest('heygen', `${base}${path}`, { method: 'GET', headers, signal }, opts)
    if (res.status !== 200) throw fail(res)
    return safeJson(res.body)?.data as Record<string, unknown> | undefined
  }
  const list = <T>(path: string, key: string, pick: (x: T) => { id?: string; name?: string }) =>
    once(async () =>
      (((await get(path, AbortSignal.timeout(60_000)))?.[key] as T[] | undefined) ?? []).map(pick).filter((x): x is { id: string; name?: string } => !!x.id),
    )
  const avatars = list<{ avatar_id?: string; avatar_name?: string }>('/v2/avatars', 'avatars', (a) => ({ id: a.avatar_id, name: a.avatar_name }))
  const voices = list<{ voice_id?: string; name?: string }>('/v2/voices', 'voices', (v) => ({ id: v.voice_id, name: v.name }))
  return defineAiProvider({
    kind: 'ai',
    name: 'heygen-avatar',
    task: 'avatar',
    models: ['heygen-v2'],
    async run(req, { signal, workDir }) {
      const avatarId = await resolveByName('heygen', 'avatar', req.avatar, { configured: opts.avatars, isId: (s) => HEX_ID.test(s), list: avatars })
      if (!req.voice) throw new RenderError('E_PROVIDER_FAILED', 'heygen: a voice is required', { vendor: 'heygen' })
      const voiceId = await resolveByName('heygen', 'voice', req.voice, { configured: opts.voices, isId: (s) => HEX_ID.test(s), list: voices })
      const vertical = req.aspectRatio === '9:16'
      const body = {
        video_inputs: [
          {
            character: { type: 'avatar', avatar_id: avatarId, avatar_style: req.style ?? 'normal' },
            voice: { type: 'text', input_text: req.text, voice_id: voiceId },
            background: { type: 'color', value: req.background ?? '#ffffff' },
          },
        ],
        dimension: vertical ? { width: 720, height: 1280 } : { width: 1280, height: 720 },
        ...(req.test !== undefined ? { test: req.test } : {}),
      }
      const created = await providerRequest(
        'heygen',
        `${base}/v2/video/generate`,
        { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body), signal },
        opts,
      )
      const id = (safeJson(created.body)?.data as { video_id?: unknown } | undefined)?.video_id
      if (created.status !== 200 || typeof id !== 'string') throw fail(created)
      const url = await pollTask(
        'heygen',
        id,
        async () => {
          const video = (await get(`/v1/video_status.get?video_id=${encodeURIComponent(id)}`, signal)) as Status | undefined
          if (video?.status === 'completed') {
            if (typeof video.video_url !== 'string')
              throw new RenderError('E_PROVIDER_FAILED', `heygen: video ${id} completed without a video_url`, { vendor: 'heygen' })
            return video.video_url
          }
          if (video?.status === 'failed') {
            const reason = redact(video.error?.detail ?? video.error?.message ?? 'no reason given')
            if (/moderat|policy|inappropriate/i.test(reason)) throw moderated('heygen', reason)
            throw new RenderError('E_PROVIDER_FAILED', `heygen: the video failed (${reason}${video.error?.code ? ` [${video.error.code}]` : ''})`, {
              vendor: 'heygen',
            })
          }
          return undefined // waiting, pending, processing
        },
        { signal, intervalMs: opts.pollIntervalMs ?? 5000, maxWaitMs: opts.maxWaitMs ?? 1_200_000 },
      )
      return keepTalkingClip('heygen', url, { ...opts, workDir, signal })
    },
  })
}
