import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createCanvas, loadImage } from '@napi-rs/canvas'
import { automatic1111Provider, bflProvider, openaiProvider, sandboxProvider, stabilityProvider, type ProviderPlugin } from '../../index.js'
import { fakeA1111, fakeBFL, fakeOpenAI, fakeStability } from '../helpers/fake-vendors.js'
import { rejectsWith } from '../helpers/rejects.js'

const signal = new AbortController().signal
const req = (extra: object = {}) => ({ prompt: 'a lighthouse at dusk', model: 'dall-e-3', width: 1920, height: 1080, ...extra })

/** Size and centre colour of returned PNG bytes. */
async function inspect(data: Uint8Array) {
  const img = await loadImage(Buffer.from(data))
  const c = createCanvas(img.width, img.height)
  c.getContext('2d').drawImage(img, 0, 0)
  const px = c.getContext('2d').getImageData(img.width >> 1, img.height >> 1, 1, 1).data
  return { width: img.width, height: img.height, rgb: [px[0], px[1], px[2]] }
}
const fails = rejectsWith

const openai = suite('openai (dall-e-3)')
openai('request shape; the nearest supported size is fitted to the exact request', async () => {
  const fake = await fakeOpenAI('#ff0000')
  const p = openaiProvider({ apiKey: 'sk-test', baseUrl: fake.url })
  const out = await p.generate(req({ style: 'vivid' }), { signal })
  const r = fake.requests[0]!
  assert.is(r.method, 'POST')
  assert.is(r.path, '/v1/images/generations')
  assert.is(r.headers.authorization, 'Bearer sk-test')
  assert.match(String(r.headers['content-type']), /application\/json/)
  assert.equal(r.json, { model: 'dall-e-3', prompt: 'a lighthouse at dusk', n: 1, size: '1792x1024', response_format: 'b64_json', style: 'vivid' })
  assert.equal(await inspect(out.data), { width: 1920, height: 1080, rgb: [255, 0, 0] })
  assert.is(out.revisedPrompt, 'revised: a lighthouse at dusk')
  await fake.close()
})
openai('a GPT image model upstream: its own sizes, no response_format or style', async () => {
  const fake = await fakeOpenAI()
  const out = await openaiProvider({ apiKey: 'sk-test', baseUrl: fake.url, model: 'gpt-image-1' }).generate(req({ width: 1080, height: 1920 }), { signal })
  assert.equal(fake.requests[0]!.json, { model: 'gpt-image-1', prompt: 'a lighthouse at dusk', n: 1, size: '1024x1536', output_format: 'png' })
  assert.is(out.upstreamModel, 'gpt-image-1')
  assert.equal((await inspect(out.data)).width, 1080)
  await fake.close()
})
openai('401 is a clear error that never echoes the key; content policy is a moderation refusal', async () => {
  const fake = await fakeOpenAI()
  const e = await fails(
    openaiProvider({ apiKey: 'sk-wrong-secret', baseUrl: fake.url }).generate(req(), { signal }),
    'E_PROVIDER_FAILED',
    /openai: the API key was rejected \(HTTP 401\)/,
  )
  assert.not.match(e.message, /sk-wrong/)
  fake.push({
    status: 400,
    json: {
      error: {
        message: 'Your request was rejected as a result of our safety system.',
        type: 'invalid_request_error',
        param: null,
        code: 'content_policy_violation',
      },
    },
  })
  const m = await fails(openaiProvider({ apiKey: 'sk-test', baseUrl: fake.url }).generate(req(), { signal }), 'E_PROVIDER_FAILED', /content moderation/)
  assert.is(m.data?.moderated, true)
  await fake.close()
})
openai('429 with retry-after and a 500 are retried; a retry-after beyond the limit fails at once', async () => {
  const fake = await fakeOpenAI()
  const p = openaiProvider({ apiKey: 'sk-test', baseUrl: fake.url })
  fake.push(
    {
      status: 429,
      json: { error: { message: 'Rate limit reached', type: 'requests', param: null, code: 'rate_limit_exceeded' } },
      headers: { 'retry-after': '0.2' },
    },
    { status: 500, json: { error: { message: 'server error' } } },
  )
  const t = performance.now()
  await p.generate(req(), { signal })
  assert.is(fake.requests.length, 3)
  assert.ok(performance.now() - t >= 200, 'waited for retry-after')
  fake.push({ status: 429, json: { error: { message: 'Rate limit reached' } }, headers: { 'retry-after': '120' } })
  await fails(p.generate(req(), { signal }), 'E_PROVIDER_FAILED', /rate limited by the provider \(HTTP 429\)/)
  await fake.close()
})
openai('an answer slower than the time-out is E_PROVIDER_TIMEOUT', async () => {
  const fake = await fakeOpenAI()
  fake.push({ status: 200, json: {}, delayMs: 1500 })
  await fails(
    openaiProvider({ apiKey: 'sk-test', baseUrl: fake.url, timeoutMs: 200, retries: 0 }).generate(req(), { signal }),
    'E_PROVIDER_TIMEOUT',
    /no answer within 200 ms/,
  )
  await fake.close()
})
openai.run()

const bfl = suite('bfl (flux)')
bfl('submit with x-key, poll the polling_url until Ready, download the sample without the key', async () => {
  const fake = await fakeBFL('#00ff00', { pendingPolls: 2 })
  const out = await bflProvider({ apiKey: 'bfl-test', baseUrl: fake.url, pollIntervalMs: 10 }).generate(req({ model: 'flux', negativePrompt: 'people' }), {
    signal,
  })
  const [submit, ...rest] = fake.requests
  assert.is(submit!.path, '/v1/flux-pro-1.1')
  assert.is(submit!.headers['x-key'], 'bfl-test')
  assert.equal(submit!.json, {
    prompt: 'a lighthouse at dusk\n\nAvoid: people',
    width: 1440,
    height: 800,
    output_format: 'png',
    prompt_upsampling: false,
    safety_tolerance: 2,
  })
  assert.equal(
    rest.map((r) => r.path.split('?')[0]),
    ['/v1/get_result', '/v1/get_result', '/v1/get_result', `/sample/${'task-1'}.png`],
  )
  assert.is(rest.at(-1)!.headers['x-key'], undefined, 'no key sent to the sample host')
  assert.equal(await inspect(out.data), { width: 1920, height: 1080, rgb: [0, 255, 0] })
  await fake.close()
})
bfl('moderation statuses, errors and 422 validation become clear failures', async () => {
  for (const status of ['Request Moderated', 'Content Moderated']) {
    const fake = await fakeBFL('#000', { final: status })
    const e = await fails(
      bflProvider({ apiKey: 'bfl-test', baseUrl: fake.url, pollIntervalMs: 5 }).generate(req({ model: 'flux' }), { signal }),
      'E_PROVIDER_FAILED',
      new RegExp(`content moderation \\(${status}\\)`),
    )
    assert.is(e.data?.moderated, true)
    await fake.close()
  }
  const fake = await fakeBFL('#000', { final: 'Error' })
  await fails(
    bflProvider({ apiKey: 'bfl-test', baseUrl: fake.url, pollIntervalMs: 5 }).generate(req({ model: 'flux' }), { signal }),
    'E_PROVIDER_FAILED',
    /generation failed \(Error\)/,
  )
  await fails(
    bflProvider({ apiKey: 'bfl-test', baseUrl: fake.url, pollIntervalMs: 5 }).generate(req({ model: 'flux', prompt: '' }), { signal }),
    'E_PROVIDER_FAILED',
    /body\.prompt: Field required \(HTTP 422\)/,
  )
  await fails(
    bflProvider({ apiKey: 'nope', baseUrl: fake.url }).generate(req({ model: 'flux' }), { signal }),
    'E_PROVIDER_FAILED',
    /API key was rejected \(HTTP 403\)/,
  )
  await fake.close()
})
bfl.run()

const sd = suite('stable-diffusion providers')
sd('Stability v1: JSON text_prompts with a negative weight, steps, the artistic preset, an SDXL size', async () => {
  const fake = await fakeStability('#0000ff')
  const out = await stabilityProvider({ apiKey: 'sk-stab', baseUrl: fake.url }).generate(
    req({ model: 'stable-diffusion', negativePrompt: 'blurry', steps: 40, style: 'artistic' }),
    { signal },
  )
  const r = fake.requests[0]!
  assert.is(r.path, '/v1/generation/stable-diffusion-xl-1024-v1-0/text-to-image')
  assert.is(r.headers.authorization, 'Bearer sk-stab')
  assert.is(r.headers.accept, 'application/json')
  assert.equal(r.json, {
    text_prompts: [
      { text: 'a lighthouse at dusk', weight: 1 },
      { text: 'blurry', weight: -1 },
    ],
    width: 1344,
    height: 768,
    steps: 40,
    cfg_scale: 7,
    samples: 1,
    style_preset: 'digital-art',
  })
  assert.equal(await inspect(out.data), { width: 1920, height: 1080, rgb: [0, 0, 255] })
  await fake.close()
})
sd('Stability v2beta: multipart form fields, Accept image/*, raw bytes back; CONTENT_FILTERED is moderation', async () => {
  const fake = await fakeStability('#0000ff')
  await stabilityProvider({ apiKey: 'sk-stab', baseUrl: fake.url, api: 'v2beta' }).generate(req({ model: 'stable-diffusion', negativePrompt: 'blurry' }), {
    signal,
  })
  const r = fake.requests[0]!
  assert.is(r.path, '/v2beta/stable-image/generate/core')
  assert.is(r.headers.accept, 'image/*')
  assert.match(String(r.headers['content-type']), /^multipart\/form-data; boundary=/)
  const form = r.body.toString('utf8')
  for (const [name, value] of [
    ['prompt', 'a lighthouse at dusk'],
    ['negative_prompt', 'blurry'],
    ['aspect_ratio', '16:9'],
    ['output_format', 'png'],
  ]) {
    assert.match(form, new RegExp(`name="${name}"\\r\\n\\r\\n${value}\\r\\n`), name)
  }
  await fake.close()
  const filtered = await fakeStability('#000', { finishReason: 'CONTENT_FILTERED' })
  await fails(
    stabilityProvider({ apiKey: 'sk-stab', baseUrl: filtered.url }).generate(req({ model: 'stable-diffusion' }), { signal }),
    'E_PROVIDER_FAILED',
    /content moderation \(CONTENT_FILTERED\)/,
  )
  await filtered.close()
})
sd('AUTOMATIC1111: /sdapi/v1/txt2img on your own server', async () => {
  const fake = await fakeA1111('#ffff00')
  const out = await automatic1111Provider({ baseUrl: fake.url }).generate(
    req({ model: 'stable-diffusion', negativePrompt: 'text', steps: 25, width: 1024, height: 576 }),
    { signal },
  )
  const r = fake.requests[0]!
  assert.is(r.path, '/sdapi/v1/txt2img')
  assert.equal(
    { prompt: r.json.prompt, negative_prompt: r.json.negative_prompt, steps: r.json.steps, width: r.json.width, height: r.json.height },
    { prompt: 'a lighthouse at dusk', negative_prompt: 'text', steps: 25, width: 1024, height: 576 },
  )
  assert.equal(await inspect(out.data), { width: 1024, height: 576, rgb: [255, 255, 0] })
  await fake.close()
})
sd.run()

const sandbox = suite('sandbox generator')
sandbox('deterministic: the same request gives the same PNG bytes, of exactly the asked size', async () => {
  const p: ProviderPlugin = sandboxProvider
  const a = await p.generate(req({ width: 576, height: 1024, seed: 7 }), { signal })
  const b = await p.generate(req({ width: 576, height: 1024, seed: 7 }), { signal })
  const c = await p.generate(req({ width: 576, height: 1024, seed: 8 }), { signal })
  assert.ok(Buffer.from(a.data).equals(Buffer.from(b.data)))
  assert.not.ok(Buffer.from(a.data).equals(Buffer.from(c.data)))
  assert.equal((await inspect(a.data)).width, 576)
  assert.is(a.provider, 'sandbox')
})
sandbox.run()
