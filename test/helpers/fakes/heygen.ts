import { randomBytes } from 'node:crypto'
import { fakeServer, type FakeServer, type Scripted } from '../fake-vendors.js'
import { talkingClip } from './talking-clip.js'

// HeyGen's API as its reference (docs.heygen.com) defines it: `X-Api-Key`; v2 answers `{error, data}`:
// `GET /v2/avatars` → `{avatars: [{avatar_id, avatar_name, gender, …}], talking_photos}`, `GET /v2/voices` →
// `{voices: [{voice_id, name, language, gender, …}]}`, `POST /v2/video/generate` `{video_inputs: [{character:
// {type: avatar, avatar_id, avatar_style}, voice: {type: text, input_text, voice_id}, background: {type: color,
// value}}], dimension: {width, height}, test?}` → `{video_id}`; v1 `GET /v1/video_status.get?video_id=` →
// `{code: 100, data: {id, status: pending | processing | completed | failed, video_url, duration, error}, message}`.

export const HEYGEN_AVATARS = [
  { avatar_id: 'Angela-inTshirt-20220820', avatar_name: 'Angela in T-shirt', gender: 'female' },
  { avatar_id: 'Bill-inSuit-20220822', avatar_name: 'Bill in Suit', gender: 'male' },
]
export const HEYGEN_VOICES = [
  { voice_id: '1bd001e7e50f421d891986aad5158bc8', name: 'Abbi - Natural', language: 'English', gender: 'female' },
  { voice_id: '2f72ee82b83d4b00af16c4771d611752', name: 'Brian - Natural', language: 'English', gender: 'male' },
]

export interface FakeHeygenOptions {
  apiKey?: string
  /** Polls answered pending/processing before completed (default 2). */
  pendingPolls?: number
  /** Ends every video `failed` with this error. */
  fail?: { code: number; message: string; detail: string }
}

const v2Error = (status: number, code: string, message: string): Scripted => ({ status, json: { error: { code, message }, data: null } })

export async function fakeHeygen(opts: FakeHeygenOptions = {}): Promise<FakeServer> {
  const key = opts.apiKey ?? 'hg-test-key'
  const videos = new Map<string, { polls: number; text: string; width: number; height: number }>()
  const server: FakeServer = await fakeServer(async (req) => {
    const url = new URL(req.path, 'http://x')
    const file = /^\/videos\/(\w+)\.mp4$/.exec(url.pathname)
    if (req.method === 'GET' && file) {
      const v = videos.get(file[1]!)
      return v
        ? { status: 200, raw: await talkingClip(v.text, v.width / 4, v.height / 4), headers: { 'content-type': 'video/mp4' } }
        : { status: 404, json: {} }
    }
    if (req.headers['x-api-key'] !== key) return v2Error(401, 'authentication_failed', 'Unauthorized: invalid API key')
    if (req.method === 'GET' && url.pathname === '/v2/avatars')
      return { status: 200, json: { error: null, data: { avatars: HEYGEN_AVATARS, talking_photos: [] } } }
    if (req.method === 'GET' && url.pathname === '/v2/voices') return { status: 200, json: { error: null, data: { voices: HEYGEN_VOICES } } }
    if (req.method === 'POST' && url.pathname === '/v2/video/generate') {
      const b = req.json ?? {}
      const scene = b.video_inputs?.[0]
      if (!Array.isArray(b.video_inputs) || b.video_inputs.length !== 1) return v2Error(400, 'invalid_parameter', 'video_inputs must hold 1 to 50 scenes')
      if (scene.character?.type !== 'avatar' || !HEYGEN_AVATARS.some((a) => a.avatar_id === scene.character.avatar_id))
        return v2Error(400, 'avatar_not_found', `Avatar ${scene.character?.avatar_id} not found`)
      if (!['normal', 'circle', 'closeUp'].includes(scene.character.avatar_style)) return v2Error(400, 'invalid_parameter', 'avatar_style is invalid')
      if (scene.voice?.type !== 'text' || typeof scene.voice.input_text !== 'string' || !HEYGEN_VOICES.some((v) => v.voice_id === scene.voice.voice_id))
        return v2Error(400, 'voice_not_found', 'voice is invalid')
      if (scene.background && (scene.background.type !== 'color' || !/^#[0-9a-fA-F]{6}$/.test(scene.background.value)))
        return v2Error(400, 'invalid_parameter', 'background is invalid')
      const { width, height } = b.dimension ?? { width: 1280, height: 720 }
      const id = randomBytes(16).toString('hex')
      videos.set(id, { polls: 0, text: scene.voice.input_text, width, height })
      return { status: 200, json: { error: null, data: { video_id: id } } }
    }
    if (req.method === 'GET' && url.pathname === '/v1/video_status.get') {
      const id = url.searchParams.get('video_id') ?? ''
      const v = videos.get(id)
      if (!v) return { status: 404, json: { code: 40008, message: 'Video not found' } }
      const none = {
        callback_id: null,
        caption_url: null,
        duration: null,
        error: null,
        gif_url: null,
        thumbnail_url: null,
        video_url: null,
        video_url_caption: null,
      }
      v.polls++
      const data =
        v.polls <= (opts.pendingPolls ?? 2)
          ? { ...none, id, status: v.polls === 1 ? 'pending' : 'processing' }
          : opts.fail
            ? { ...none, id, status: 'failed', error: opts.fail }
            : { ...none, id, status: 'completed', video_url: `${server.url}/videos/${id}.mp4?Expires=1&Signature=fake`, duration: 1.5 }
      return { status: 200, json: { code: 100, data, message: 'Success' } }
    }
    return v2Error(404, 'not_found', 'Not Found')
  })
  return server
}
