import { randomUUID } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fakeServer, type FakeServer, type Scripted } from '../fake-vendors.js'
import { lavfi, tempDir } from '../media.js'

// Runway's wire protocol (api.dev.runwayml.com, X-Runway-Version 2024-11-06) as its API and SDK define it:
// create answers `{id}`, `GET /v1/tasks/{id}` walks PENDING → RUNNING (progress) → SUCCEEDED with `output`
// URLs on a delivery host (no key needed), or FAILED with `failure` and `failureCode`. Errors are `{error}`.

const clips = new Map<string, Promise<Buffer>>()
/** A real small H.264 mp4 (testsrc2, 24 fps), made once per size and length: what a vendor's CDN serves. */
export function vendorClip(width: number, height: number, seconds: number): Promise<Buffer> {
  const key = `${width}x${height}x${seconds}`
  if (!clips.has(key)) {
    const out = join(tempDir('reelforge-vendor-clip-'), `${key}.mp4`)
    clips.set(
      key,
      lavfi(`testsrc2=s=${width}x${height}:r=24:d=${seconds}`, out, ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p']).then((p) =>
        readFile(p),
      ),
    )
  }
  return clips.get(key)!
}

const RATIOS: Record<string, string[]> = {
  gen4_turbo: ['1280:720', '720:1280', '1104:832', '832:1104', '960:960', '1584:672'],
  'gen4.5': ['1280:720', '720:1280', '1104:832', '960:960', '832:1104', '1584:672'],
}
const TEXT_RATIOS = ['1280:720', '720:1280']

export interface FakeRunwayOptions {
  apiKey?: string
  /** Polls answered PENDING/RUNNING before SUCCEEDED (default 2); Infinity never finishes. */
  pendingPolls?: number
  /** Ends every task FAILED with this failure. */
  fail?: { failure: string; failureCode: string }
}

/** The fake Runway API on 127.0.0.1; `requests` records every call, `push` scripts answers (429, 5xx). */
export async function fakeRunway(opts: FakeRunwayOptions = {}): Promise<FakeServer> {
  const key = opts.apiKey ?? 'key_test_runway'
  const tasks = new Map<string, { polls: number; body: any }>()
  const error = (status: number, message: string): Scripted => ({ status, json: { error: message } })
  const server: FakeServer = await fakeServer(async (req) => {
    const path = new URL(req.path, 'http://x').pathname
    const out = /^\/outputs\/([\w-]+)\.mp4$/.exec(path)
    if (req.method === 'GET' && out) {
      const task = tasks.get(out[1]!)
      if (!task) return { status: 404, json: { error: 'Not found' } }
      const [w, h] = String(task.body.ratio)
        .split(':')
        .map((n) => 2 * Math.round(Number(n) / 20))
      return { status: 200, raw: await vendorClip(w!, h!, task.body.duration), headers: { 'content-type': 'video/mp4' } }
    }
    if (req.headers.authorization !== `Bearer ${key}`) return error(401, 'Invalid API key')
    if (req.headers['x-runway-version'] !== '2024-11-06') return error(400, 'The X-Runway-Version header is missing or invalid')
    const create = /^\/v1\/(image|text)_to_video$/.exec(path)
    if (req.method === 'POST' && create) {
      const b = req.json ?? {}
      const image = create[1] === 'image'
      const ratios = image ? RATIOS[b.model] : b.model === 'gen4.5' ? TEXT_RATIOS : undefined
      if (!ratios) return error(400, `Invalid model: ${b.model}`)
      if (!ratios.includes(b.ratio)) return error(400, `Invalid ratio for ${b.model}: ${b.ratio}`)
      if (!Number.isInteger(b.duration) || b.duration < 2 || b.duration > 10) return error(400, 'duration must be an integer from 2 to 10')
      if (image && !/^(https:\/\/|data:image\/(png|jpeg|webp);base64,)/.test(String(b.promptImage)))
        return error(400, 'promptImage must be an HTTPS URL or a data URI')
      if (!image && !b.promptText) return error(400, 'promptText is required')
      if (b.promptText !== undefined && (typeof b.promptText !== 'string' || b.promptText.length > 1000))
        return error(400, 'promptText must be 1–1000 characters')
      const id = randomUUID()
      tasks.set(id, { polls: 0, body: b })
      return { status: 200, json: { id } }
    }
    const taskPath = /^\/v1\/tasks\/([\w-]+)$/.exec(path)
    const task = taskPath && tasks.get(taskPath[1]!)
    if (!task) return error(404, 'Task not found')
    const id = taskPath![1]!
    if (req.method === 'DELETE') return { status: 204 }
    const createdAt = '2026-01-01T00:00:00.000Z'
    task.polls++
    if (task.polls <= (opts.pendingPolls ?? 2))
      return { status: 200, json: task.polls === 1 ? { id, createdAt, status: 'PENDING' } : { id, createdAt, status: 'RUNNING', progress: 0.5 } }
    if (opts.fail) return { status: 200, json: { id, createdAt, status: 'FAILED', ...opts.fail } }
    return { status: 200, json: { id, createdAt, status: 'SUCCEEDED', output: [`${server.url}/outputs/${id}.mp4?sig=fake`] } }
  })
  return server
}
