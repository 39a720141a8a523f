import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createCanvas, loadImage } from '@napi-rs/canvas'
import { bflProvider, defineProviderPlugin, openaiProvider } from '../../../index.js'
import { fakeBFL, fakeOpenAI } from '../../helpers/fake-vendors.js'
import { testService } from '../../helpers/service.js'

const ok = { prompt: 'a red kite over hills' }

async function pixelOf(svc: Awaited<ReturnType<typeof testService>>, url: string, x?: number, y?: number) {
  const res = await svc.app.request(new URL(url).pathname)
  assert.is(res.headers.get('content-type'), 'image/png')
  const img = await loadImage(Buffer.from(await res.arrayBuffer()))
  const c = createCanvas(img.width, img.height)
  c.getContext('2d').drawImage(img, 0, 0)
  const d = c.getContext('2d').getImageData(x ?? img.width >> 1, y ?? img.height >> 1, 1, 1).data
  return { width: img.width, height: img.height, rgb: [d[0], d[1], d[2]] }
}

const rules = suite("POST /v1/ai/image: the seed's model rules")
const svc = await testService()
const CASES: [object, string, RegExp][] = [
  [{ model: 'flux', style: 'vivid' }, 'style', /style "vivid" is not available for flux; use natural/],
  [{ model: 'dall-e-3', style: 'artistic' }, 'style', /use natural or vivid/],
  [{ model: 'dall-e-3', negative_prompt: 'text' }, 'negative_prompt', /not supported by dall-e-3/],
  [{ model: 'flux', steps: 30 }, 'steps', /only supported by stable-diffusion/],
  [{ model: 'stable-diffusion', steps: 10 }, 'steps', /between 20 and 50, got 10/],
  [{ model: 'stable-diffusion', steps: 51 }, 'steps', /between 20 and 50, got 51/],
  [{ width: 1000, height: 1000 }, 'width', /1000x1000 is not a supported size; use one of 512x512, 1024x1024/],
  [{ model: 'midjourney' }, 'model', /must be one of dall-e-3, flux, stable-diffusion/],
  [{ prompt: '   ' }, 'prompt', /must not be empty/],
  [{ prompt: 'x'.repeat(4001) }, 'prompt', /at most 4000 characters/],
  [{ colour: 'blue' }, 'colour', /not a known field/],
]
for (const [extra, path, message] of CASES) {
  rules(`${JSON.stringify(extra).slice(0, 60)} → 400 at ${path}`, async () => {
    const r = await svc.call('POST', '/v1/ai/image', { body: { ...ok, ...extra } })
    assert.is(r.status, 400)
    assert.is(r.body.error.code, 'E_VALIDATION')
    assert.ok(
      r.body.error.issues.some((i: { path: string; message: string }) => i.path === path && message.test(i.message)),
      JSON.stringify(r.body.error.issues),
    )
  })
}
rules('defaults: flux, 1024×1024, natural; a sandbox key gets the sandbox generator, free and marked', async () => {
  const r = await svc.call('POST', '/v1/ai/image', { key: svc.sandbox, body: ok })
  assert.is(r.status, 200)
  assert.equal(
    { model: r.body.model, width: r.body.width, height: r.body.height, provider: r.body.provider, credits_used: r.body.credits_used },
    { model: 'flux', width: 1024, height: 1024, provider: 'sandbox', credits_used: 0 },
  )
  assert.equal((await pixelOf(svc, r.body.url)).width, 1024)
  assert.equal(Object.keys(r.body).sort(), ['created_at', 'credits_used', 'error', 'height', 'id', 'model', 'provider', 'status', 'url', 'width'])
})
rules('the 16th dall-e-3 call in a minute is 429 E_RATE_LIMITED with Retry-After; other models keep their own limit', async () => {
  const key = (await svc.keys.create({ sandbox: true })).key
  for (let i = 0; i < 15; i++)
    assert.is((await svc.call('POST', '/v1/ai/image', { key, body: { ...ok, model: 'dall-e-3', width: 512, height: 512 } })).status, 200, `call ${i + 1}`)
  const limited = await svc.call('POST', '/v1/ai/image', { key, body: { ...ok, model: 'dall-e-3', width: 512, height: 512 } })
  assert.is(limited.status, 429)
  assert.is(limited.body.error.code, 'E_RATE_LIMITED')
  const retry = Number(limited.headers.get('retry-after'))
  assert.ok(retry >= 1 && retry <= 60, `retry-after ${retry}`)
  assert.is((await svc.call('POST', '/v1/ai/image', { key, body: { ...ok, model: 'flux', width: 512, height: 512 } })).status, 200)
})
rules.after(() => svc.close())
rules.run()

const vendors = suite('live keys through configured providers')
vendors('dall-e-3 through OpenAI: charged 6 credits, stored, the URL serves the exact size', async () => {
  const openai = await fakeOpenAI('#ff0000')
  const s = await testService({ credits: 100, overrides: { providers: [openaiProvider({ apiKey: 'sk-test', baseUrl: openai.url })] } })
  const r = await s.call('POST', '/v1/ai/image', { body: { ...ok, model: 'dall-e-3', width: 1920, height: 1080, style: 'vivid' } })
  assert.is(r.status, 200, JSON.stringify(r.body))
  assert.equal({ provider: r.body.provider, credits_used: r.body.credits_used }, { provider: 'openai', credits_used: 6 })
  assert.equal(await pixelOf(s, r.body.url), { width: 1920, height: 1080, rgb: [255, 0, 0] })
  assert.equal((await s.call('GET', '/v1/wallet')).body, { balance: 94, held: 0, available: 94, low_balance_threshold: 100 })
  // A model with no provider configured: the sandbox generator, marked and free.
  const flux = await s.call('POST', '/v1/ai/image', { body: ok })
  assert.equal({ provider: flux.body.provider, credits_used: flux.body.credits_used }, { provider: 'sandbox', credits_used: 0 })
  // Upstream refusal: a clear error, the hold released, ai.failed queued.
  openai.push({
    status: 400,
    json: { error: { message: 'rejected by our safety system', type: 'invalid_request_error', param: null, code: 'content_policy_violation' } },
  })
  const refused = await s.call('POST', '/v1/ai/image', { body: { ...ok, model: 'dall-e-3' } })
  assert.is(refused.status, 422)
  assert.is(refused.body.error.code, 'E_CONTENT_MODERATED')
  assert.is((await s.call('GET', '/v1/wallet')).body.balance, 94)
  await s.close()
  await openai.close()
})
vendors('a provider answering bytes of no image fails the image naming it, and charges nothing', async () => {
  const junk = defineProviderPlugin({
    kind: 'provider',
    name: 'junk',
    models: ['dall-e-3'],
    generate: async () => ({ data: Buffer.from('<html>busy</html>'), mime: 'image/png', provider: 'junk', upstreamModel: 'x' }),
  })
  const s = await testService({ credits: 100, overrides: { providers: [junk] } })
  const r = await s.call('POST', '/v1/ai/image', { body: { ...ok, model: 'dall-e-3' } })
  assert.is(r.status, 502, JSON.stringify(r.body))
  assert.match(r.body.error.message, /\[provider:junk\] generate: answered no image/)
  assert.is((await s.call('GET', '/v1/wallet')).body.balance, 100)
  await s.close()
})
vendors('402 when the credits are missing: nothing generated', async () => {
  const openai = await fakeOpenAI()
  const s = await testService({ credits: 5, overrides: { providers: [openaiProvider({ apiKey: 'sk-test', baseUrl: openai.url })] } })
  const r = await s.call('POST', '/v1/ai/image', { body: { ...ok, model: 'dall-e-3' } })
  assert.is(r.status, 402)
  assert.is(openai.requests.length, 0)
  await s.close()
  await openai.close()
})
vendors('a batch runs every item, charges per successful image, reports each result, and sends ai.* per item', async () => {
  const bfl = await fakeBFL('#00ff00', { pendingPolls: 1 })
  const s = await testService({ credits: 100, overrides: { providers: [bflProvider({ apiKey: 'bfl-test', baseUrl: bfl.url, pollIntervalMs: 10 })] } })
  await s.call('PUT', '/v1/webhooks', { body: { url: 'http://127.0.0.1:1/unused', events: ['ai.complete', 'ai.failed'], secret: 'x'.repeat(16) } })
  const invalid = await s.call('POST', '/v1/ai/image/batch', { body: { requests: [ok, { ...ok, style: 'vivid' }] } })
  assert.is(invalid.status, 400)
  assert.ok(invalid.body.error.issues.some((i: { path: string }) => i.path === 'requests[1].style'))
  assert.is((await s.call('POST', '/v1/ai/image/batch', { body: { requests: Array(21).fill(ok) } })).status, 400)
  const batch = await s.call('POST', '/v1/ai/image/batch', { body: { requests: [ok, { ...ok, width: 1024, height: 576 }, { ...ok, prompt: '' }].slice(0, 2) } })
  assert.is(batch.status, 202)
  let view: any
  for (let i = 0; i < 200; i++) {
    view = (await s.call('GET', `/v1/ai/image/batch/${batch.body.batchId}`)).body
    if (view.status === 'complete') break
    await new Promise((r) => setTimeout(r, 25))
  }
  assert.is(view.status, 'complete')
  assert.equal(
    view.items.map((i: any) => [i.status, i.image?.width, i.image?.height]),
    [
      ['complete', 1024, 1024],
      ['complete', 1024, 576],
    ],
  )
  assert.is(view.credits_used, 10)
  assert.equal((await pixelOf(s, view.items[1].image.url)).rgb, [0, 255, 0])
  assert.equal((await s.outbox.list(s.liveAccount)).map((d) => d.event).sort(), ['ai.complete', 'ai.complete'])
  assert.is((await s.call('GET', `/v1/ai/image/batch/${batch.body.batchId}`, { key: s.sandbox })).status, 404, 'another account')
  await s.close()
  await bfl.close()
})
vendors.run()

const timeline = suite('AI images in timelines')
timeline("a generated image's URL works as an image asset (read from storage, no HTTP to itself)", async () => {
  const openai = await fakeOpenAI('#ff0000')
  const s = await testService({ start: true, overrides: { providers: [openaiProvider({ apiKey: 'sk-test', baseUrl: openai.url })] } })
  const image = (await s.call('POST', '/v1/ai/image', { body: { ...ok, model: 'dall-e-3', width: 1024, height: 576 } })).body
  assert.match(image.url, /^http:\/\/reelforge\.test\/v1\/files\//, 'an address nothing can fetch in this test')
  const edit = {
    timeline: { tracks: [{ clips: [{ asset: { type: 'image', src: image.url }, start: 0, length: 0.04 }] }] },
    output: { format: 'png', size: { width: 320, height: 180 } },
  }
  const { body } = await s.call('POST', '/v1/render', { body: edit })
  const done = await s.waitFor(body.jobId, ['COMPLETE', 'FAILED'])
  assert.is(done.status, 'COMPLETE', done.error)
  assert.equal((await pixelOf(s, done.url)).rgb, [255, 0, 0])
  await s.close()
  await openai.close()
})
timeline('text-to-image and image-with-prompt clips generate through the providers, charged like the endpoint', async () => {
  const bfl = await fakeBFL('#00ff00')
  const s = await testService({
    start: true,
    credits: 100,
    overrides: { providers: [bflProvider({ apiKey: 'bfl-test', baseUrl: bfl.url, pollIntervalMs: 10 })] },
  })
  const edit = {
    timeline: {
      tracks: [
        {
          clips: [
            { asset: { type: 'text-to-image', prompt: 'green field', width: 512, height: 512 }, start: 0, length: 0.04 },
            { asset: { type: 'image', prompt: 'green hill', aspectRatio: '16:9' }, start: 0.04, length: 0.04 },
          ],
        },
      ],
    },
    output: { format: 'mp4', size: { width: 320, height: 180 }, fps: 25 },
  }
  const { body } = await s.call('POST', '/v1/render', { body: edit })
  const done = await s.waitFor(body.jobId, ['COMPLETE', 'FAILED'])
  assert.is(done.status, 'COMPLETE', done.error)
  const charges = await s.db.all<{ amount: number }>(`SELECT amount FROM wallet_ledger WHERE account_id = ? AND kind = 'charge' ORDER BY id`, [s.liveAccount])
  assert.equal(
    charges.map((c) => c.amount),
    [5, 5, 1],
    'two flux images (5 each) and the render (1)',
  )
  assert.is(bfl.requests.filter((r) => r.method === 'POST').length, 2)
  await s.close()
  await bfl.close()
})
timeline("a provider failure fails the render with the provider's reason", async () => {
  const bfl = await fakeBFL('#000', { final: 'Content Moderated' })
  const s = await testService({ start: true, overrides: { providers: [bflProvider({ apiKey: 'bfl-test', baseUrl: bfl.url, pollIntervalMs: 10 })] } })
  const edit = {
    timeline: { tracks: [{ clips: [{ asset: { type: 'text-to-image', prompt: 'forbidden' }, start: 0, length: 1 }] }] },
    output: { format: 'mp4', size: { width: 320, height: 180 } },
  }
  const { body } = await s.call('POST', '/v1/render', { body: edit })
  const done = await s.waitFor(body.jobId, ['COMPLETE', 'FAILED'])
  assert.is(done.status, 'FAILED')
  assert.match(done.error, /timeline\.tracks\[0\]\.clips\[0\]\.asset: bfl: refused by the provider's content moderation \(Content Moderated\)/)
  await s.close()
  await bfl.close()
})
timeline.run()
