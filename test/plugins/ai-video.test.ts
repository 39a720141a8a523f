import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { probe } from '../../core/index.js'
import { lumaVideoProvider } from '../../plugins/providers/ai/luma-video.js'
import { runwayVideoProvider } from '../../plugins/providers/ai/runway-video.js'
import { SANDBOX_VIDEO_FPS, sandboxVideoProvider } from '../../plugins/providers/ai/sandbox-video.js'
import { fakeLuma } from '../helpers/fakes/luma.js'
import { fakeRunway } from '../helpers/fakes/runway.js'
import { decodeFrames, mean, near } from '../helpers/frames.js'
import { drawnPng, tempDir } from '../helpers/media.js'
import { rejectsWith } from '../helpers/rejects.js'

const dir = tempDir('reelforge-ai-video-')
const ctx = { signal: new AbortController().signal, workDir: dir }
const req = (extra: object = {}) => ({ prompt: 'a lighthouse at dusk', duration: 2, width: 320, height: 180, model: 'sandbox', ...extra })

/** Codec, size, decoded frame count and frame rate of an mp4. */
async function shape(path: string) {
  const v = (await probe(path, { countFrames: true })).streams.find((s) => s.type === 'video')!
  return { codec: v.codec, width: v.width, height: v.height, frames: v.frames, fps: v.fps }
}
const fails = rejectsWith

const sandbox = suite('sandbox video')
sandbox('exact size and length, it moves, and the same request makes the same frames', async () => {
  const a = await sandboxVideoProvider.run(req(), ctx)
  assert.is(a.duration, 2)
  assert.equal(await shape(a.path), { codec: 'h264', width: 320, height: 180, frames: 2 * SANDBOX_VIDEO_FPS, fps: SANDBOX_VIDEO_FPS })
  const f = await decodeFrames(a.path, 320, 180)
  let diff = 0
  for (let i = 0; i < f.frame(0).length; i++) diff += Math.abs(f.frame(0)[i]! - f.frame(49)[i]!)
  assert.ok(diff / f.frame(0).length > 2, `first and last frames should differ (mean ${diff / f.frame(0).length})`)
  const b = await sandboxVideoProvider.run(req(), ctx)
  assert.ok(Buffer.compare((await decodeFrames(b.path, 320, 180)).frame(0), f.frame(0)) === 0)
  assert.ok((await readFile(a.path)).equals(await readFile(b.path)), 'same bytes')
  const other = await decodeFrames((await sandboxVideoProvider.run(req({ prompt: 'a forest' }), ctx)).path, 320, 180)
  assert.not.ok(Buffer.compare(other.frame(0), f.frame(0)) === 0, 'another prompt, another clip')
})
sandbox('a given image of another aspect is shown whole over its blurred copy', async () => {
  const image = await drawnPng(join(dir, 'tall.png'), 90, 160, (g) => {
    g.fillStyle = '#00ff00'
    g.fillRect(0, 0, 90, 160)
  })
  const out = await sandboxVideoProvider.run(req({ image, prompt: undefined, duration: 1.2, width: 240, height: 136 }), ctx)
  assert.equal(await shape(out.path), { codec: 'h264', width: 240, height: 136, frames: 30, fps: 25 })
  const f = await decodeFrames(out.path, 240, 136)
  assert.ok(near(mean(f, 0, 110, 60, 130, 76), [0, 255, 0], 20), 'the picture in the middle')
  const side = mean(f, 0, 2, 60, 12, 76)
  assert.ok(side[1] < 230 && side[1] > 60, `the backdrop: a darker green (${side})`)
})
sandbox("the same image makes the same clip wherever its file lies (a render's cache folder is its own)", async () => {
  // Its pan direction came from a hash of the image's path: the same edit moved one way in one folder and the
  // other way in the next. Eight copies: all alike by chance 1 time in 128.
  const first = await drawnPng(join(dir, 'same-0.png'), 64, 36, (g) => {
    g.fillStyle = '#3060c0'
    g.fillRect(0, 0, 64, 36)
    g.fillStyle = '#f0d020'
    g.fillRect(8, 6, 20, 20)
  })
  const bytes = await readFile(first)
  const clips = []
  for (let i = 0; i < 8; i++) {
    const image = join(dir, `copy-${i}`, 'same.png')
    await mkdir(dirname(image), { recursive: true })
    await writeFile(image, bytes)
    clips.push(await readFile((await sandboxVideoProvider.run(req({ image, prompt: undefined, duration: 0.4, width: 64, height: 36 }), ctx)).path))
  }
  for (const clip of clips.slice(1)) assert.ok(clip.equals(clips[0]!), 'the same bytes from every copy')
})
sandbox('odd sizes and no duration are clear errors', async () => {
  await fails(sandboxVideoProvider.run(req({ width: 321 }), ctx), 'E_PROVIDER_FAILED', /even width and height/)
  await fails(sandboxVideoProvider.run(req({ duration: 0 }), ctx), 'E_PROVIDER_FAILED', /duration must be positive/)
})
sandbox.run()

const fast = { pollIntervalMs: 5, maxWaitMs: 5000 }
const startImage = () =>
  drawnPng(join(dir, 'start.png'), 64, 36, (g) => {
    g.fillStyle = '#3366ff'
    g.fillRect(0, 0, 64, 36)
  })

const runway = suite('runway video')
runway('image to video: wire shape, polling, download without the key, exact size and length', async () => {
  const fake = await fakeRunway()
  const p = runwayVideoProvider({ apiKey: 'key_test_runway', baseUrl: fake.url, ...fast })
  const out = await p.run(req({ image: await startImage(), duration: 2.5, model: 'gen4_turbo' }), ctx)
  const [create, ...rest] = fake.requests
  assert.equal([create!.method, create!.path], ['POST', '/v1/image_to_video'])
  assert.is(create!.headers.authorization, 'Bearer key_test_runway')
  assert.is(create!.headers['x-runway-version'], '2024-11-06')
  const { promptImage, ...body } = create!.json
  assert.equal(body, { model: 'gen4_turbo', ratio: '1280:720', duration: 3, promptText: 'a lighthouse at dusk' })
  assert.match(promptImage, /^data:image\/png;base64,iVBOR/)
  assert.equal(
    rest.map((r) => `${r.method} ${r.path.replace(/[\w-]{36}/, 'ID')}`),
    ['GET /v1/tasks/ID', 'GET /v1/tasks/ID', 'GET /v1/tasks/ID', 'GET /outputs/ID.mp4?sig=fake'],
  )
  assert.is(rest.at(-1)!.headers.authorization, undefined)
  assert.is(out.duration, 2.5)
  assert.equal(await shape(out.path), { codec: 'h264', width: 320, height: 180, frames: 60, fps: 24 })
  await fake.close()
})
runway('prompt only goes to text_to_video; longer than 10 s is slowed to fit; publishImage is used when given', async () => {
  const fake = await fakeRunway({ pendingPolls: 0 })
  const p = runwayVideoProvider({ apiKey: 'key_test_runway', baseUrl: fake.url, ...fast, publishImage: async () => 'https://cdn.example/start.png' })
  const out = await p.run(req({ duration: 12, width: 96, height: 160 }), ctx)
  assert.equal(
    [fake.requests[0]!.path, fake.requests[0]!.json],
    ['/v1/text_to_video', { model: 'gen4.5', ratio: '720:1280', duration: 10, promptText: 'a lighthouse at dusk' }],
  )
  assert.equal(await shape(out.path), { codec: 'h264', width: 96, height: 160, frames: 288, fps: 24 })
  await p.run(req({ image: await startImage() }), ctx)
  assert.is(fake.requests.at(-3)!.json.promptImage, 'https://cdn.example/start.png')
  await fake.close()
})
runway('401 never echoes the key; 429 waits its retry-after; 5xx is retried', async () => {
  const fake = await fakeRunway({ pendingPolls: 0 })
  const e = await fails(
    runwayVideoProvider({ apiKey: 'key_wrong_secret', baseUrl: fake.url, ...fast }).run(req(), ctx),
    'E_PROVIDER_FAILED',
    /API key was rejected \(HTTP 401\)/,
  )
  assert.not.match(e.message, /wrong_secret/)
  fake.push({ status: 429, json: { error: 'Too many requests' }, headers: { 'retry-after': '1' } }, { status: 502, json: { error: 'Bad gateway' } })
  const t0 = Date.now()
  const out = await runwayVideoProvider({ apiKey: 'key_test_runway', baseUrl: fake.url, ...fast }).run(req(), ctx)
  assert.ok(Date.now() - t0 >= 1000, 'retry-after honoured')
  assert.is((await shape(out.path)).frames, 48)
  await fake.close()
})
runway('FAILED: SAFETY codes are moderation refusals, others carry the reason', async () => {
  for (const [fail, pattern, moderated] of [
    [{ failure: 'Input rejected', failureCode: 'SAFETY.INPUT.TEXT' }, /content moderation \(Input rejected \[SAFETY\.INPUT\.TEXT\]\)/, true],
    [{ failure: 'An unexpected error occurred.', failureCode: 'INTERNAL.BAD_OUTPUT.CODE01' }, /generation failed \(An unexpected error/, undefined],
  ] as const) {
    const fake = await fakeRunway({ fail })
    const e = await fails(runwayVideoProvider({ apiKey: 'key_test_runway', baseUrl: fake.url, ...fast }).run(req(), ctx), 'E_PROVIDER_FAILED', pattern)
    assert.is(e.data?.moderated, moderated)
    await fake.close()
  }
})
runway('a refusal at create (HTTP 400) is moderation, final, no task polled; a key the vendor quotes is masked', async () => {
  const fake = await fakeRunway()
  const p = runwayVideoProvider({ apiKey: 'key_test_runway', baseUrl: fake.url, ...fast })
  fake.push({ status: 400, json: { error: 'Your prompt was flagged by our content moderation system.' } })
  const e = await fails(p.run(req(), ctx), 'E_PROVIDER_FAILED', /runway: refused by the provider's content moderation \(Your prompt was flagged/)
  assert.is(e.data?.moderated, true)
  assert.equal(
    fake.requests.map((r) => r.method),
    ['POST'],
    'not retried, nothing polled',
  )
  fake.push({ status: 400, json: { error: 'Request signed with key_test_runway is not allowed to use gen4.5' } })
  const echoed = await fails(p.run(req(), ctx), 'E_PROVIDER_FAILED', /is not allowed to use gen4\.5/)
  assert.not.match(JSON.stringify([echoed.message, echoed.data]), /key_test_runway/)
  assert.match(echoed.message, /\*\*\*/)
  await fake.close()
})
runway('a task that never finishes times out and is cancelled upstream; an abort cancels too', async () => {
  const fake = await fakeRunway({ pendingPolls: Infinity })
  const p = runwayVideoProvider({ apiKey: 'key_test_runway', baseUrl: fake.url, pollIntervalMs: 5, maxWaitMs: 150 })
  await fails(p.run(req(), ctx), 'E_PROVIDER_TIMEOUT', /runway: task [\w-]+ not finished after 0\.15 s/)
  // The abort with a wait of its own far off: a loaded machine's stalled timers cannot let the time-out win.
  const patient = runwayVideoProvider({ apiKey: 'key_test_runway', baseUrl: fake.url, pollIntervalMs: 5, maxWaitMs: 60_000 })
  const abort = new AbortController()
  setTimeout(() => abort.abort(), 100)
  await fails(patient.run(req(), { signal: abort.signal, workDir: dir }), 'E_CANCELLED', /cancelled/)
  // The cancel is sent without waiting for it: give it a moment to arrive.
  const deletes = () => fake.requests.filter((r) => r.method === 'DELETE').length
  for (let i = 0; i < 40 && deletes() < 2; i++) await new Promise((r) => setTimeout(r, 50))
  assert.is(deletes(), 2)
  await fake.close()
})
runway.run()

const luma = suite('luma video')
luma('wire shape, queued → dreaming → completed, exact size and length', async () => {
  const fake = await fakeLuma()
  const out = await lumaVideoProvider({ apiKey: 'luma-test-key', baseUrl: fake.url, ...fast }).run(req({ duration: 3, model: 'ray-2' }), ctx)
  const [create, ...rest] = fake.requests
  assert.equal([create!.method, create!.path, create!.headers.authorization], ['POST', '/dream-machine/v1/generations/video', 'Bearer luma-test-key'])
  assert.equal(create!.json, {
    generation_type: 'video',
    model: 'ray-2',
    prompt: 'a lighthouse at dusk',
    aspect_ratio: '16:9',
    duration: '5s',
    resolution: '540p',
  })
  assert.equal(
    rest.map((r) => `${r.method} ${r.path.replace(/[\w-]{36}/, 'ID')}`),
    ['GET /dream-machine/v1/generations/ID', 'GET /dream-machine/v1/generations/ID', 'GET /dream-machine/v1/generations/ID', 'GET /cdn/ID.mp4'],
  )
  assert.is(rest.at(-1)!.headers.authorization, undefined)
  assert.equal(await shape(out.path), { codec: 'h264', width: 320, height: 180, frames: 72, fps: 24 })
  await fake.close()
})
luma('a start image is a keyframe URL from publishImage, and a clear error without it', async () => {
  const fake = await fakeLuma({ pendingPolls: 0 })
  const image = await startImage()
  await lumaVideoProvider({
    apiKey: 'luma-test-key',
    baseUrl: `${fake.url}/dream-machine/v1`,
    ...fast,
    publishImage: async () => 'https://cdn.example/s.png',
  }).run(req({ image, duration: 7, width: 160, height: 160 }), ctx)
  assert.equal(
    [fake.requests[0]!.json.keyframes, fake.requests[0]!.json.aspect_ratio, fake.requests[0]!.json.duration],
    [{ frame0: { type: 'image', url: 'https://cdn.example/s.png' } }, '1:1', '9s'],
  )
  await fails(lumaVideoProvider({ apiKey: 'luma-test-key', baseUrl: fake.url }).run(req({ image }), ctx), 'E_PROVIDER_FAILED', /publishImage/)
  await fake.close()
})
luma('401 never echoes the key; 429 and 5xx are retried; failures map to moderation or the reason; time-out', async () => {
  const fake = await fakeLuma({ pendingPolls: 0 })
  const e = await fails(
    lumaVideoProvider({ apiKey: 'luma-wrong-secret', baseUrl: fake.url, ...fast }).run(req(), ctx),
    'E_PROVIDER_FAILED',
    /API key was rejected \(HTTP 401\)/,
  )
  assert.not.match(e.message, /wrong-secret/)
  fake.push({ status: 429, json: { detail: 'Rate limit exceeded' }, headers: { 'retry-after': '1' } }, { status: 500, json: { detail: 'Internal error' } })
  const t0 = Date.now()
  await lumaVideoProvider({ apiKey: 'luma-test-key', baseUrl: fake.url, ...fast }).run(req(), ctx)
  assert.ok(Date.now() - t0 >= 1000, `retry-after: 1 honoured (${Date.now() - t0} ms)`)
  assert.equal(
    fake.requests.slice(1, 4).map((r) => r.method),
    ['POST', 'POST', 'POST'],
  )
  await fake.close()
  for (const [reason, pattern, moderated] of [
    ['400: prompt not allowed because advanced moderation failed', /content moderation/, true],
    ['Generation failed: internal error', /generation failed \(Generation failed: internal error\)/, undefined],
  ] as const) {
    const failing = await fakeLuma({ pendingPolls: 1, failureReason: reason })
    const m = await fails(lumaVideoProvider({ apiKey: 'luma-test-key', baseUrl: failing.url, ...fast }).run(req(), ctx), 'E_PROVIDER_FAILED', pattern)
    assert.is(m.data?.moderated, moderated)
    await failing.close()
  }
  const slow = await fakeLuma({ pendingPolls: Infinity })
  await fails(
    lumaVideoProvider({ apiKey: 'luma-test-key', baseUrl: slow.url, pollIntervalMs: 5, maxWaitMs: 100 }).run(req(), ctx),
    'E_PROVIDER_TIMEOUT',
    /luma: task/,
  )
  await slow.close()
})
luma.run()
