import { randomBytes } from 'node:crypto'
import { fakeServer, type FakeServer, type Scripted } from '../fake-vendors.js'
import { talkingClip } from './talking-clip.js'

// D-ID's Clips API as its OpenAPI (docs.d-id.com) defines it: `Authorization: Basic <key>`; `GET /clips/presenters`
// → `{presenters: [{presenter_id, driver_id, name, gender, …}]}`; `POST /clips` `{presenter_id, script: {type: text,
// input (3–40000)}, background?: {color: #rrggbb | false}, config?: {result_format}}` → 201 `{id, object: clip,
// created_at, status: created}`; `GET /clips/{id}` walks created → started → done with `result_url` (a signed
// S3 URL, no key), or `error` / `rejected`. Errors are `{kind, description}`.

/** The presenters this fake account lists: D-ID's ids are `<name>-<10 characters>` (jack's and rian's are real, lana's made up). */
export const DID_PRESENTERS = [
  { presenter_id: 'jack-Pt27VkP3hW', driver_id: 'fbQicImV2J', name: 'Jack', gender: 'male' },
  { presenter_id: 'lana-q7Zk2NcR4e', driver_id: 'Vcq0R4a8F0', name: 'Lana', gender: 'female' },
  { presenter_id: 'rian-lZC6MmWfC1', driver_id: 'mXra4jY38i', name: 'Rian', gender: 'male' },
]

export interface FakeDidOptions {
  apiKey?: string
  /** Polls answered created/started before done (default 2). */
  pendingPolls?: number
  /** Ends every clip with `status: error` and this error. */
  fail?: { kind: string; description: string }
}

const error = (status: number, kind: string, description: string): Scripted => ({ status, json: { kind, description } })

export async function fakeDid(opts: FakeDidOptions = {}): Promise<FakeServer> {
  const key = opts.apiKey ?? 'ZGlkQHRlc3Q:did-secret'
  const clips = new Map<string, { polls: number; text: string; created_at: string; presenter_id: string }>()
  const server: FakeServer = await fakeServer(async (req) => {
    const path = new URL(req.path, 'http://x').pathname
    const result = /^\/results\/(clp_\w+)\.mp4$/.exec(path)
    if (req.method === 'GET' && result) {
      const clip = clips.get(result[1]!)
      return clip
        ? { status: 200, raw: await talkingClip(clip.text, 320, 180), headers: { 'content-type': 'video/mp4' } }
        : error(404, 'NotFoundError', 'not found')
    }
    if (req.headers.authorization !== `Basic ${key}`) return error(401, 'AuthorizationError', 'user unauthenticated')
    if (req.method === 'GET' && path === '/clips/presenters') return { status: 200, json: { presenters: DID_PRESENTERS } }
    if (req.method === 'POST' && path === '/clips') {
      const b = req.json ?? {}
      if (!DID_PRESENTERS.some((p) => p.presenter_id === b.presenter_id)) return error(404, 'PresenterNotFoundError', `presenter ${b.presenter_id} not found`)
      if (b.script?.type !== 'text' || typeof b.script.input !== 'string' || b.script.input.length < 3 || b.script.input.length > 40000)
        return error(400, 'ValidationError', 'script.input must be 3 to 40000 characters')
      if (b.background !== undefined && b.background.color !== false && !/^#[a-fA-F0-9]{6}$/.test(b.background.color ?? ''))
        return error(400, 'ValidationError', 'background.color must match ^#[a-fA-F0-9]{6}$')
      if (b.config?.result_format !== undefined && !['mp4', 'mov', 'webm'].includes(b.config.result_format))
        return error(400, 'ValidationError', 'config.result_format must be mp4, mov or webm')
      const id = `clp_${randomBytes(8).toString('hex')}`
      const created_at = new Date().toISOString()
      clips.set(id, { polls: 0, text: b.script.input, created_at, presenter_id: b.presenter_id })
      return { status: 201, json: { id, object: 'clip', created_at, status: 'created' } }
    }
    const get = /^\/clips\/(clp_\w+)$/.exec(path)
    const clip = get && clips.get(get[1]!)
    if (req.method !== 'GET' || !clip) return error(404, 'NotFoundError', 'not found')
    const base = {
      id: get![1],
      owner_id: 'google-oauth2|1',
      created_at: clip.created_at,
      modified_at: new Date().toISOString(),
      presenter_id: clip.presenter_id,
    }
    clip.polls++
    if (clip.polls <= (opts.pendingPolls ?? 2)) return { status: 200, json: { ...base, status: clip.polls === 1 ? 'created' : 'started' } }
    if (opts.fail) return { status: 200, json: { ...base, status: 'error', error: opts.fail } }
    return { status: 200, json: { ...base, status: 'done', result_url: `${server.url}/results/${get![1]}.mp4?AWSAccessKeyId=AKIA&Signature=fake` } }
  })
  return server
}
