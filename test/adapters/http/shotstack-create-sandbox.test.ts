import { readFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import { join } from 'node:path'
import Shotstack from 'shotstack-sdk'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createApiService, download, generate, media } from '../../helpers/create-api.js'
import { solidPng, tempDir } from '../../helpers/media.js'

// Shotstack's Create API as a customer's code drives it with the SDK's CreateApi: every provider and type with a
// sandbox key (`/create/stage`), on the local engines — posted, polled to `done`, and the file at its `url`
// downloaded and checked for what the type promises. No vendor is configured: none may be reached. (The SDK's
// `GeneratedAsset` oneOf wrapper throws client side in 0.2.9, against Shotstack too; its users build the
// provider models directly, as here.)

const { stage, close } = await createApiService()
// The start image Shotstack's image-to-video asks for (1024×576), on a host of the customer's.
const dir = tempDir('reelforge-create-image-')
await solidPng(join(dir, 'start.png'), 1024, 576, '#3060c0')
const host = createServer(async (_req, res) => res.end(await readFile(join(dir, 'start.png'))))
await new Promise<void>((r) => host.listen(0, '127.0.0.1', r))
const imageUrl = `http://127.0.0.1:${(host.address() as { port: number }).port}/start.png`
const S = Shotstack

const sandbox = suite('sandbox keys on /create/stage: every provider and type on the local engines')
sandbox('each asset is queued, then done, and its url holds what the type says', async () => {
  const stability = new S.StabilityAiTextToImageOptions('text-to-image', 'a red kite over hills', 512, 512)
  const openai = new S.OpenAiTextGeneratorOptions('text-generator', 'Write about lighthouses', 'gpt-4')
  openai.setSystemPrompt('You write short scripts.')
  const heygenOptions = new S.HeyGenTextToAvatarOptions('text-to-avatar', 'Hi, I am a sandbox avatar.', 'Angela', 'Abbi - Natural')
  heygenOptions.setRatio('9:16')
  const assets: Array<[string, unknown]> = [
    [
      'shotstack/text-to-speech',
      new S.ShotstackGeneratedAsset('shotstack', new S.ShotstackTextToSpeechOptions('text-to-speech', 'Hello from the create API.', 'Matthew')),
    ],
    ['shotstack/text-to-image', new S.ShotstackGeneratedAsset('shotstack', new S.ShotstackTextToImageOptions('text-to-image', 'a lighthouse', 640, 360))],
    ['shotstack/image-to-video', new S.ShotstackGeneratedAsset('shotstack', new S.ShotstackImageToVideoOptions('image-to-video', imageUrl))],
    ['shotstack/text-generator', new S.ShotstackGeneratedAsset('shotstack', new S.ShotstackTextGeneratorOptions('text-generator', 'Write about lighthouses'))],
    [
      'elevenlabs/text-to-speech',
      new S.ElevenLabsGeneratedAsset('elevenlabs', new S.ElevenLabsTextToSpeechOptions('text-to-speech', 'Hello from Rachel.', 'Rachel')),
    ],
    ['openai/text-generator', new S.OpenAiGeneratedAsset('openai', openai)],
    ['stability-ai/text-to-image', new S.StabilityAiGeneratedAsset('stability-ai', stability)],
    ['d-id/text-to-avatar', new S.DIDGeneratedAsset('d-id', new S.DIDTextToAvatarOptions('text-to-avatar', 'Hi, I am Jack.', 'jack'))],
    ['heygen/text-to-avatar', new S.HeyGenGeneratedAsset('heygen', heygenOptions)],
  ]
  const results = await Promise.all(assets.map(([, asset]) => generate(stage, asset)))
  for (const [i, [name]] of assets.entries()) {
    const { posted, done } = results[i]!
    const [provider, type] = name.split('/')
    assert.equal([posted.type, posted.attributes.provider, posted.attributes.type, posted.attributes.status], ['asset', provider, type, 'queued'], name)
    assert.is(done.status, 'done', `${name}: ${JSON.stringify(done)}`)
    assert.is(done.owner, posted.attributes.owner)
    assert.ok(Date.parse(done.updated) >= Date.parse(done.created), name)
  }
  const file = (i: number, name: string) => download(results[i]!.done.url, name)
  for (const i of [0, 4]) {
    const voice = await media((await file(i, `speech-${i}.mp3`)).path)
    assert.equal([voice.video, voice.audio], [undefined, true], 'speech is audio only')
    assert.ok(voice.duration > 0.5, `speech lasts ${voice.duration} s`)
  }
  for (const [i, size] of [
    [1, [640, 360]],
    [6, [512, 512]],
  ] as const) {
    const png = await file(i, `image-${i}.png`)
    assert.is(png.bytes.subarray(1, 4).toString(), 'PNG')
    assert.equal((await media(png.path)).video, size)
  }
  const clip = await media((await file(2, 'video.mp4')).path)
  assert.equal([clip.video, clip.audio, clip.duration], [[1024, 576], false, 4], 'image-to-video: a 4-second clip of the image size')
  for (const i of [3, 5]) {
    const text = (await file(i, `text-${i}.txt`)).bytes.toString('utf8')
    assert.match(text, /[Ll]ighthouses/, 'the text is written from the prompt')
  }
  const jack = await media((await file(7, 'd-id.mp4')).path)
  assert.equal([jack.video, jack.audio], [[1280, 720], true], 'an avatar is a video with its voice')
  const angela = await media((await file(8, 'heygen.mp4')).path)
  assert.equal([angela.video, angela.audio], [[720, 1280], true], '9:16 stands up')
})
sandbox.after(async () => {
  host.closeAllConnections()
  await new Promise<void>((r) => host.close(() => r()))
  await close()
})
sandbox.run()
