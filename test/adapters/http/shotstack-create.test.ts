import Shotstack from 'shotstack-sdk'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createApiService, download, generate, media, refusal } from '../../helpers/create-api.js'
import { stabilityProvider } from '../../../plugins/index.js'
import { fakeStability } from '../../helpers/fake-vendors.js'
import { fakeDid } from '../../helpers/fakes/did.js'
import { fakeElevenLabs, RACHEL_ID } from '../../helpers/fakes/elevenlabs.js'
import { fakeHeygen } from '../../helpers/fakes/heygen.js'

// Shotstack's Create API with live keys (`/create/v1`), driven by the SDK's CreateApi: the vendors this server's
// environment configures — here fakes speaking D-ID's, HeyGen's and ElevenLabs' wire protocols — charged as
// /v1's AI jobs are; and its refusals, in its `{ errors: [...] }` shape, naming the field.

const did = await fakeDid({ pendingPolls: 0 })
const heygen = await fakeHeygen({ pendingPolls: 0 })
const eleven = await fakeElevenLabs()
const stability = await fakeStability('#ff8000')
const { svc, base, createApi, stage, v1, close } = await createApiService(
  {
    DID_API_KEY: 'ZGlkQHRlc3Q:did-secret',
    DID_BASE_URL: did.url,
    HEYGEN_API_KEY: 'hg-test-key',
    HEYGEN_BASE_URL: heygen.url,
    ELEVENLABS_API_KEY: 'xi-test',
    ELEVENLABS_BASE_URL: eleven.url,
  },
  [stabilityProvider({ apiKey: 'sk-stab', baseUrl: stability.url })],
)
const S = Shotstack
const speech = () => new S.ShotstackGeneratedAsset('shotstack', new S.ShotstackTextToSpeechOptions('text-to-speech', 'Hello from the create API.', 'Matthew'))

const live = suite('live keys on /create/v1: the configured vendors, charged')
live('D-ID, HeyGen and ElevenLabs assets come from the vendors, are downloaded, and cost what /v1 charges', async () => {
  const before = (await svc.wallet.state(svc.liveAccount)).balance
  const dOptions = new S.DIDTextToAvatarOptions('text-to-avatar', 'Hello, I am Jack from D-ID.', 'jack')
  dOptions.setBackground('#203040')
  const hOptions = new S.HeyGenTextToAvatarOptions('text-to-avatar', 'Hello, I am Bill from HeyGen.', 'Bill', 'Brian - Natural')
  hOptions.setAvatarStyle('circle')
  hOptions.setTest(true)
  const [d, h, e] = await Promise.all([
    generate(v1, new S.DIDGeneratedAsset('d-id', dOptions)),
    generate(v1, new S.HeyGenGeneratedAsset('heygen', hOptions)),
    generate(v1, new S.ElevenLabsGeneratedAsset('elevenlabs', new S.ElevenLabsTextToSpeechOptions('text-to-speech', 'Hello from Rachel.', 'Rachel'))),
  ])
  for (const r of [d, h, e]) assert.is(r.done.status, 'done', JSON.stringify(r.done))
  assert.equal(did.requests.find((r) => r.method === 'POST')!.json.background, { color: '#203040' })
  const scene = heygen.requests.find((r) => r.method === 'POST')!.json
  assert.equal([scene.video_inputs[0].character.avatar_id, scene.video_inputs[0].character.avatar_style, scene.test], ['Bill-inSuit-20220822', 'circle', true])
  assert.ok(
    eleven.requests.some((r) => r.path.startsWith(`/v1/text-to-speech/${RACHEL_ID}/with-timestamps`)),
    'Rachel by her premade voice id',
  )
  for (const [r, name] of [
    [d, 'live-d-id.mp4'],
    [h, 'live-heygen.mp4'],
  ] as const) {
    const m = await media((await download(r.done.url, name)).path)
    assert.ok(m.video && m.audio && m.duration > 0.5, `${name}: ${JSON.stringify(m)}`)
  }
  assert.ok((await media((await download(e.done.url, 'live-eleven.mp3')).path)).audio)
  // The price table's defaults: an avatar 20 credits, speech 2.
  assert.is((await svc.wallet.state(svc.liveAccount)).balance, before - 20 - 20 - 2)
})
live("Stability AI gets the request's engine, steps, seed, cfg scale and style preset; the picture is the size asked", async () => {
  const before = (await svc.wallet.state(svc.liveAccount)).balance
  const options = new S.StabilityAiTextToImageOptions('text-to-image', 'a kite over hills', 512, 512)
  options.setEngine('stable-diffusion-v1-6')
  options.setSteps(40)
  options.setSeed(42)
  options.setCfgScale(12)
  options.setStylePreset('anime')
  const made = await generate(v1, new S.StabilityAiGeneratedAsset('stability-ai', options))
  assert.is(made.done.status, 'done', JSON.stringify(made.done))
  const call = stability.requests.find((r) => r.method === 'POST')!
  assert.is(call.path, '/v1/generation/stable-diffusion-v1-6/text-to-image')
  assert.equal([call.json.steps, call.json.seed, call.json.cfg_scale, call.json.style_preset], [40, 42, 12, 'anime'])
  const png = await download(made.done.url, 'live-stability.png')
  assert.equal((await media(png.path)).video, [512, 512])
  assert.is((await svc.wallet.state(svc.liveAccount)).balance, before - 4, "the price table's stable-diffusion image")
})
live('a sandbox key never reaches a configured vendor: its avatar and speech come from the local engines', async () => {
  const calls = () => did.requests.length + heygen.requests.length + eleven.requests.length
  const before = calls()
  const [d, e] = await Promise.all([
    generate(stage, new S.DIDGeneratedAsset('d-id', new S.DIDTextToAvatarOptions('text-to-avatar', 'Hi, I am Jack.', 'jack'))),
    generate(stage, new S.ElevenLabsGeneratedAsset('elevenlabs', new S.ElevenLabsTextToSpeechOptions('text-to-speech', 'Hello from Rachel.', 'Rachel'))),
  ])
  assert.equal([d.done.status, e.done.status], ['done', 'done'])
  assert.is(calls(), before)
})
live('a vendor this server has no key for is a 422 saying what to set; nothing is kept or charged', async () => {
  const before = (await svc.wallet.state(svc.liveAccount)).balance
  const rows = async () => (await svc.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM ai_jobs'))!.n
  const count = await rows()
  const r = await refusal(v1.postGenerateAsset(new S.OpenAiGeneratedAsset('openai', new S.OpenAiTextGeneratorOptions('text-generator', 'a kite', 'gpt-4'))))
  assert.is(r.status, 422)
  assert.match(r.body.errors[0].detail, /^provider openai is not configured on this server; set OPENAI_API_KEY$/)
  assert.equal([await rows(), (await svc.wallet.state(svc.liveAccount)).balance], [count, before])
})
live.run()

const refused = suite("refusals in the Create API's shape")
refused('an unknown provider or type, or a bad option, is a 400 naming the field', async () => {
  const text = new S.ShotstackTextGeneratorOptions('text-generator', 'x')
  let r = await refusal(stage.postGenerateAsset(new S.ShotstackGeneratedAsset('acme', text)))
  assert.equal([r.status, Object.keys(r.body), r.body.errors[0].status, r.body.errors[0].title], [400, ['errors'], '400', 'Bad Request'])
  assert.match(r.body.errors[0].detail, /provider: must be one of shotstack, elevenlabs, openai, stability-ai, d-id, heygen; got "acme"/)
  r = await refusal(stage.postGenerateAsset(new S.ElevenLabsGeneratedAsset('elevenlabs', new S.StabilityAiTextToImageOptions('text-to-image', 'x', 64, 64))))
  assert.match(r.body.errors[0].detail, /options\.type: provider elevenlabs offers text-to-speech; got "text-to-image"/)
  r = await refusal(
    stage.postGenerateAsset(new S.HeyGenGeneratedAsset('heygen', new S.HeyGenTextToAvatarOptions('text-to-avatar', 'hi there', 'Angela', 'Nobody'))),
  )
  assert.match(r.body.errors[0].detail, /options\.voice: must be one of the \d+ names Shotstack lists/)
  r = await refusal(
    stage.postGenerateAsset(new S.StabilityAiGeneratedAsset('stability-ai', new S.StabilityAiTextToImageOptions('text-to-image', 'x', 500, 512))),
  )
  assert.match(r.body.errors[0].detail, /options\.width: must be divisible by 64, got 500/)
  assert.is(r.status, 400)
})
refused("another account's asset, and an id that is none, are 404; keys keep to their environment", async () => {
  const mine = await v1.postGenerateAsset(speech())
  const stranger = createApi('v1', (await svc.keys.create()).key)
  for (const id of [mine.data.id, 'not-an-id']) {
    const r = await refusal(stranger.getGeneratedAsset(id))
    assert.equal([r.status, r.body.errors[0].status, r.body.errors[0].title], [404, '404', 'Not Found'])
  }
  assert.is((await v1.getGeneratedAsset(mine.data.id)).data.id, mine.data.id, 'its owner reads it')
  assert.is((await refusal(createApi('v1', svc.sandbox).postGenerateAsset(speech()))).status, 403)
  const wrongEnv = await refusal(createApi('stage', svc.live).getGeneratedAsset(mine.data.id))
  assert.equal(
    [wrongEnv.status, wrongEnv.body.errors[0].detail],
    [403, 'a production key works on the v1 environment only: use /edit/v1, /serve/v1, /ingest/v1, /create/v1'],
  )
  const nowhere = await fetch(`${base}/create/v1/elsewhere`, { headers: { 'x-api-key': svc.live } })
  assert.equal([nowhere.status, Object.keys((await nowhere.json()) as object)], [404, ['errors']])
})
refused.after(async () => {
  await Promise.all([did.close(), heygen.close(), eleven.close(), stability.close()])
  await close()
})
refused.run()
