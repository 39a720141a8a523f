import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { probe } from '../../core/index.js'
import { didAvatarProvider } from '../../plugins/providers/ai/did-avatar.js'
import { heygenAvatarProvider } from '../../plugins/providers/ai/heygen-avatar.js'
import { sandboxAvatarProvider } from '../../plugins/providers/ai/sandbox-avatar.js'
import { speak } from '../../plugins/lib/audio/speech.js'
import { fakeDid } from '../helpers/fakes/did.js'
import { fakeHeygen } from '../helpers/fakes/heygen.js'
import { PAD } from '../helpers/fakes/speech-audio.js'
import { decodeFrames, mean, near } from '../helpers/frames.js'
import { tempDir } from '../helpers/media.js'
import { rejectsWith as fails } from '../helpers/rejects.js'

// The talking-avatar engines behind Shotstack's Create API: D-ID's Clips API and HeyGen's v2 API against fakes
// speaking their wire protocols, and the free local stand-in sandbox keys get.

const ctx = { signal: new AbortController().signal, workDir: tempDir('reelforge-ai-avatar-') }
const TEXT = 'Hello from the avatar test.'
const req = (extra: object = {}) => ({ text: TEXT, avatar: 'jack', model: 'm', ...extra })
const fast = { pollIntervalMs: 5, maxWaitMs: 5000 }

/** Video size, whether there is sound, and the length of an mp4. */
async function shape(path: string) {
  const info = await probe(path)
  const v = info.streams.find((s) => s.type === 'video')
  return { width: v?.width, height: v?.height, audio: info.streams.some((s) => s.type === 'audio'), duration: info.duration ?? 0 }
}
/** How long espeak-ng says TEXT (the fakes' clips pad it with PAD seconds at both ends). */
const spoken = async () => (await speak(TEXT, { voice: 'alloy' })).duration

const did = suite('D-ID (Clips API)')
did('finds the presenter by name, posts a clip, polls it to done and keeps the talking mp4', async () => {
  const fake = await fakeDid()
  const p = didAvatarProvider({ apiKey: 'ZGlkQHRlc3Q:did-secret', baseUrl: fake.url, ...fast })
  const out = await p.run(req({ background: '#102030' }), ctx)
  const s = await shape(out.path)
  assert.equal([s.width, s.height, s.audio], [320, 180, true])
  assert.ok(Math.abs(out.duration - ((await spoken()) + 2 * PAD)) < 0.15, `as long as the speech (${out.duration} s)`)
  const post = fake.requests.find((r) => r.method === 'POST')!
  assert.is(post.path, '/clips')
  assert.is(post.headers.authorization, 'Basic ZGlkQHRlc3Q:did-secret')
  assert.equal(post.json, {
    presenter_id: 'jack-Pt27VkP3hW',
    script: { type: 'text', input: TEXT },
    background: { color: '#102030' },
    config: { result_format: 'mp4' },
  })
  await p.run(req({ avatar: 'rian' }), ctx)
  assert.is(fake.requests.filter((r) => r.path === '/clips/presenters').length, 1, 'the presenter list is asked once')
  assert.is(fake.requests.filter((r) => r.method === 'POST').at(-1)!.json.presenter_id, 'rian-lZC6MmWfC1')
  await fake.close()
})
did('a failed clip, an unknown presenter and a refused key are clear errors that never quote the key', async () => {
  const fake = await fakeDid({ fail: { kind: 'FaceError', description: 'no face detected' } })
  const p = didAvatarProvider({ apiKey: 'ZGlkQHRlc3Q:did-secret', baseUrl: fake.url, ...fast })
  await fails(p.run(req(), ctx), 'E_PROVIDER_FAILED', /^d-id: the clip failed \(no face detected\)$/)
  await fails(p.run(req({ avatar: 'lily' }), ctx), 'E_PROVIDER_FAILED', /no avatar named "lily" on this account \(3 listed\)/)
  const wrong = didAvatarProvider({ apiKey: 'bm9wZQ:wrong-secret', baseUrl: fake.url, ...fast })
  const e = await fails(wrong.run(req(), ctx), 'E_PROVIDER_FAILED', /d-id: the API key was rejected \(HTTP 401\)/)
  assert.not.match(e.message, /wrong-secret/)
  await fake.close()
})
did.run()

const heygen = suite('HeyGen (v2 video generate, v1 status)')
heygen('finds avatar and voice by name, sends one scene with style, background and size, keeps the video', async () => {
  const fake = await fakeHeygen()
  const p = heygenAvatarProvider({ apiKey: 'hg-test-key', baseUrl: fake.url, ...fast })
  const out = await p.run(req({ avatar: 'Angela', voice: 'Abbi - Natural', style: 'circle', background: '#00ff00', aspectRatio: '9:16', test: true }), ctx)
  const s = await shape(out.path)
  assert.equal([s.width, s.height, s.audio], [180, 320, true])
  const post = fake.requests.find((r) => r.method === 'POST')!
  assert.is(post.path, '/v2/video/generate')
  assert.is(post.headers['x-api-key'], 'hg-test-key')
  assert.equal(post.json, {
    video_inputs: [
      {
        character: { type: 'avatar', avatar_id: 'Angela-inTshirt-20220820', avatar_style: 'circle' },
        voice: { type: 'text', input_text: TEXT, voice_id: '1bd001e7e50f421d891986aad5158bc8' },
        background: { type: 'color', value: '#00ff00' },
      },
    ],
    dimension: { width: 720, height: 1280 },
    test: true,
  })
  assert.ok(
    fake.requests.some((r) => r.path.startsWith('/v1/video_status.get?video_id=')),
    'polled on v1',
  )
  await fake.close()
})
heygen('a failed video says why; a voice it does not list is named', async () => {
  const fake = await fakeHeygen({ fail: { code: 40119, message: 'Video is too long', detail: 'Video is too long (> 3600.0s)' } })
  const p = heygenAvatarProvider({ apiKey: 'hg-test-key', baseUrl: fake.url, ...fast })
  await fails(
    p.run(req({ avatar: 'Bill', voice: 'Brian - Natural' }), ctx),
    'E_PROVIDER_FAILED',
    /heygen: the video failed \(Video is too long \(> 3600\.0s\) \[40119\]\)/,
  )
  await fails(p.run(req({ avatar: 'Bill', voice: 'Zed - Calm' }), ctx), 'E_PROVIDER_FAILED', /no voice named "Zed - Calm"/)
  await fake.close()
})
heygen.run()

const sandbox = suite('sandbox avatar')
sandbox('a presenter on the background colour, speaking the text for as long as it takes; 9:16 stands up', async () => {
  const out = await sandboxAvatarProvider.run(req({ background: '#2040c0' }), ctx)
  const s = await shape(out.path)
  assert.equal([s.width, s.height, s.audio], [1280, 720, true])
  const voice = (await speak(TEXT, { voice: 'Matthew' })).duration
  assert.ok(Math.abs(out.duration - voice) < 0.08, `${out.duration} s of video for ${voice} s of speech`)
  const f = await decodeFrames(out.path, 1280, 720)
  assert.ok(near(mean(f, 0, 16, 240, 160, 400), [32, 64, 192], 12), `the background colour at the side (${mean(f, 0, 16, 240, 160, 400)})`)
  const middle = mean(f, 0, 600, 280, 680, 360)
  assert.not.ok(near(middle, [32, 64, 192], 30), `the presenter in the middle (${middle})`)
  const tall = await shape((await sandboxAvatarProvider.run(req({ aspectRatio: '9:16', avatar: 'Angela' }), ctx)).path)
  assert.equal([tall.width, tall.height, tall.audio], [720, 1280, true])
})
sandbox.run()
