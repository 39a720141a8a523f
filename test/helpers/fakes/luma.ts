import { randomUUID } from 'node:crypto'
import { fakeServer, type FakeServer, type Scripted } from '../fake-vendors.js'
import { vendorClip } from './runway.js'

// Luma's Dream Machine wire protocol (api.lumalabs.ai/dream-machine/v1) as its OpenAPI spec and SDK define it:
// `POST /generations/video` (and the older `POST /generations`) answers 201 with a Generation; `GET
// /generations/{id}` walks its `state` queued → dreaming → completed with `assets.video`, or failed with
// `failure_reason`. Errors are `{detail}`. The video URL is on a delivery host that needs no key.

const RATIOS = ['1:1', '16:9', '9:16', '4:3', '3:4', '21:9', '9:21']
const RESOLUTIONS: Record<string, number> = { '540p': 540, '720p': 720, '1080p': 1080, '4k': 2160 }

export interface FakeLumaOptions {
  apiKey?: string
  /** Polls answered queued/dreaming before completed (default 2); Infinity never finishes. */
  pendingPolls?: number
  /** Ends every generation failed with this reason. */
  failureReason?: string
}

/** The fake Luma API on 127.0.0.1; `requests` records every call, `push` scripts answers (429, 5xx). */
export async function fakeLuma(opts: FakeLumaOptions = {}): Promise<FakeServer> {
  const key = opts.apiKey ?? 'luma-test-key'
  const gens = new Map<string, { polls: number; body: any }>()
  const detail = (status: number, message: string): Scripted => ({ status, json: { detail: message } })
  const generation = (id: string, g: { body: any }, state: string, extra: object = {}) => ({
    id,
    generation_type: 'video',
    state,
    failure_reason: null,
    created_at: '2026-01-01T00:00:00.000Z',
    assets: null,
    model: g.body.model,
    request: g.body,
    ...extra,
  })
  const server: FakeServer = await fakeServer(async (req) => {
    const path = new URL(req.path, 'http://x').pathname
    const asset = /^\/cdn\/([\w-]+)\.mp4$/.exec(path)
    if (req.method === 'GET' && asset) {
      const g = gens.get(asset[1]!)
      if (!g) return detail(404, 'Not Found')
      // The picture is 1/10 of the real size: `720p` at 16:9 is 128×72 here, 1280×720 at Luma.
      const short = RESOLUTIONS[g.body.resolution ?? '720p']! / 10
      const [a, b] = String(g.body.aspect_ratio ?? '16:9')
        .split(':')
        .map(Number) as [number, number]
      const even = (n: number) => 2 * Math.round(n / 2)
      const [w, h] = a >= b ? [even((short * a) / b), even(short)] : [even(short), even((short * b) / a)]
      return { status: 200, raw: await vendorClip(w, h, g.body.duration === '9s' ? 9 : 5), headers: { 'content-type': 'video/mp4' } }
    }
    if (req.headers.authorization !== `Bearer ${key}`) return detail(401, 'Invalid API key is provided')
    if (req.method === 'POST' && (path === '/dream-machine/v1/generations/video' || path === '/dream-machine/v1/generations')) {
      const b = req.json ?? {}
      if (b.model !== 'ray-2' && b.model !== 'ray-flash-2') return detail(400, `Invalid model: ${b.model}`)
      if (b.aspect_ratio !== undefined && !RATIOS.includes(b.aspect_ratio)) return detail(400, `Invalid aspect_ratio: ${b.aspect_ratio}`)
      if (b.duration !== undefined && b.duration !== '5s' && b.duration !== '9s') return detail(400, `Invalid duration: ${b.duration}`)
      if (b.resolution !== undefined && !(b.resolution in RESOLUTIONS)) return detail(400, `Invalid resolution: ${b.resolution}`)
      const frame0 = b.keyframes?.frame0
      if (frame0 && (frame0.type !== 'image' || !/^https:\/\//.test(String(frame0.url))))
        return detail(400, 'keyframes.frame0 must be an image with an https url')
      if (!b.prompt && !frame0) return detail(400, 'prompt is required')
      const id = randomUUID()
      gens.set(id, { polls: 0, body: b })
      return { status: 201, json: generation(id, gens.get(id)!, 'queued') }
    }
    const getPath = /^\/dream-machine\/v1\/generations\/([\w-]+)$/.exec(path)
    const g = getPath && req.method === 'GET' ? gens.get(getPath[1]!) : undefined
    if (!g) return detail(404, 'Generation not found')
    const id = getPath![1]!
    g.polls++
    if (g.polls <= (opts.pendingPolls ?? 2)) return { status: 200, json: generation(id, g, g.polls === 1 ? 'queued' : 'dreaming') }
    if (opts.failureReason) return { status: 200, json: generation(id, g, 'failed', { failure_reason: opts.failureReason }) }
    return { status: 200, json: generation(id, g, 'completed', { assets: { video: `${server.url}/cdn/${id}.mp4`, image: `${server.url}/cdn/${id}.jpg` } }) }
  })
  return server
}
