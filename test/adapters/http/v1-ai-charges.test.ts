import { readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { verifyWebhook } from '../../../index.js'
import { aiProvidersFromConfig } from '../../../plugins/index.js'
import { DEFAULT_PRICING } from '../../../service/billing/pricing.js'
import { pricingFromConfig } from '../../../service/billing/pricing-config.js'
import { fakeOpenAISpeech, speechAnswers } from '../../helpers/fakes/openai-speech.js'
import { solidPng, tempDir } from '../../helpers/media.js'
import { startReceiver } from '../../helpers/receiver.js'
import { type TestService, testService } from '../../helpers/service.js'

// What a live key pays for AI jobs: the price table's amount, charged once when a job completes — on a vendor
// and on the local engines alike — and nothing for a failure, which a signed `ai.failed` reports.

const dir = tempDir('reelforge-ai-charges-')
const prices = DEFAULT_PRICING.ai

async function run(svc: TestService, kind: string, body: object) {
  const queued = await svc.call('POST', `/v1/ai/${kind}`, { body })
  assert.is(queued.status, 202, JSON.stringify(queued.body))
  await svc.aiJobs.idle()
  return (await svc.call('GET', `/v1/ai/${kind}/${queued.body.id}`)).body
}
/** The ledger's charges of one job (the wallet must show each price once, not just a matching balance). */
const charges = async (svc: TestService, id: string) =>
  (await svc.wallet.ledger(svc.liveAccount, { limit: 500 })).filter((e) => e.job_id === id && e.kind === 'charge').map((e) => e.amount)
const wallet = async (svc: TestService) => (await svc.call('GET', '/v1/wallet')).body

test('a refused speech job: a signed ai.failed with the error, nothing charged; the next one charged its price once', async () => {
  const openai = await fakeOpenAISpeech()
  const rx = await startReceiver()
  const svc = await testService({ start: true, overrides: { aiProviders: aiProvidersFromConfig({ OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: openai.url }) } })
  try {
    const before = await wallet(svc)
    openai.push(speechAnswers.policyViolation())
    const failed = await run(svc, 'speech', { text: 'something forbidden', callback: `${rx.url}/hook` })
    assert.equal([failed.status, failed.provider, failed.credits_used], ['failed', 'openai-speech', 0])
    assert.match(failed.error, /content policy/)
    const [hook] = await rx.waitFor(1)
    assert.is(hook!.json.event, 'ai.failed')
    const data = { id: failed.id, kind: 'speech', status: 'failed', url: null, credits_used: 0, wallet_balance: before.balance, error: failed.error }
    assert.equal(hook!.json.data, data)
    assert.ok(verifyWebhook(hook!.body, hook!.headers['x-reelforge-signature'] as string, svc.signingSecret), 'signed')
    assert.not.ok(verifyWebhook(hook!.body, hook!.headers['x-reelforge-signature'] as string, 'another secret'))
    assert.equal(await charges(svc, failed.id), [])
    assert.equal([(await wallet(svc)).balance, (await wallet(svc)).held], [before.balance, 0], 'the hold released')

    const spoken = await run(svc, 'speech', { text: 'hello there' })
    assert.equal([spoken.status, spoken.credits_used], ['complete', prices.speech])
    assert.equal(await charges(svc, spoken.id), [prices.speech])
    assert.is((await wallet(svc)).balance, before.balance - prices.speech)
  } finally {
    await svc.close()
    await openai.close()
    await rx.close()
  }
})

test('a live key on the local engines pays the table: speech 2, transcription 2, upscale 5; failures nothing', async () => {
  assert.equal([prices.speech, prices.transcription, prices.upscale], [2, 2, 5], 'the documented prices')
  const svc = await testService({ start: true, overrides: { aiProviders: aiProvidersFromConfig({}) } })
  try {
    const before = await wallet(svc)
    const speech = await run(svc, 'speech', { text: 'Seven boats sailed out of the harbour this morning.', format: 'wav' })
    const heard = await run(svc, 'transcription', { src: speech.url })
    const png = await solidPng(join(dir, 'logo.png'), 160, 90, '#3366ff')
    const upload = new URL((await svc.call('POST', '/v1/upload', { body: { filename: 'logo.png' } })).body.url)
    const source = await (await svc.app.request(upload.pathname + upload.search, { method: 'PUT', body: readFileSync(png) })).json()
    const upscaled = await run(svc, 'upscale', { src: source.url, scale: 2 })
    for (const [job, provider, price] of [
      [speech, 'espeak-speech', prices.speech],
      [heard, 'pocketsphinx-transcription', prices.transcription],
      [upscaled, 'ffmpeg-upscale', prices.upscale],
    ] as const) {
      assert.equal([job.status, job.provider, job.credits_used], ['complete', provider, price], job.error)
      assert.equal(await charges(svc, job.id), [price], `${job.kind} charged once`)
    }
    // Failures at run time: a file that is not there, a sound where a picture was asked for.
    const missing = await run(svc, 'transcription', { src: 'http://reelforge.test/v1/files/nowhere/none.wav' })
    const notAPicture = await run(svc, 'upscale', { src: speech.url, scale: 2 })
    // A file that is no picture at all (a JSON document) is named by the src given, without ffprobe's scratch path.
    const host = createServer((_, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"a": 1}')).listen(0, '127.0.0.1')
    await new Promise((r) => host.once('listening', r))
    const notes = `http://127.0.0.1:${(host.address() as AddressInfo).port}/notes.json`
    const notMedia = await run(svc, 'upscale', { src: notes, scale: 2 }).finally(() => host.close())
    // Named by the src given: no scratch path, no demuxer's address.
    assert.is(notMedia.error, `src: ${notes} is neither an image nor a video (Invalid data found when processing input)`)
    for (const job of [missing, notAPicture, notMedia]) {
      assert.equal([job.status, job.credits_used], ['failed', 0], JSON.stringify(job))
      assert.equal(await charges(svc, job.id), [])
    }
    const after = await wallet(svc)
    assert.equal([after.balance, after.held], [before.balance - 9, 0])
  } finally {
    await svc.close()
  }
})

test('prices from the REELFORGE_CONFIG file are what a job is charged; a bad price stops the start naming it', async () => {
  const file = join(dir, 'config.json')
  writeFileSync(file, JSON.stringify({ pricing: { ai: { speech: 7 }, images: { flux: 9 } } }))
  const was = process.env.REELFORGE_CONFIG
  process.env.REELFORGE_CONFIG = file
  // The table is read once, as the service is made; the variable is put back at once (other tests share it).
  const svc = await testService({ start: true, overrides: { aiProviders: aiProvidersFromConfig({}) } }).finally(() => {
    if (was === undefined) delete process.env.REELFORGE_CONFIG
    else process.env.REELFORGE_CONFIG = was
  })
  try {
    const speech = await run(svc, 'speech', { text: 'priced by the operator' })
    assert.equal([speech.status, speech.credits_used], ['complete', 7], speech.error)
    assert.equal(await charges(svc, speech.id), [7])
  } finally {
    await svc.close()
  }
  const merged = pricingFromConfig({ REELFORGE_CONFIG: file })
  assert.equal([merged.ai.speech, merged.ai.upscale, merged.images.flux, merged.images['dall-e-3']], [7, 5, 9, 6], 'the rest keeps its default')

  writeFileSync(file, JSON.stringify({ pricing: { ai: { speech: -1, sing: 3 }, renderPerMinute: { '4k': 2.5 } } }))
  try {
    pricingFromConfig({ REELFORGE_CONFIG: file })
    assert.unreachable('a bad price table was accepted')
  } catch (e) {
    const message = (e as Error).message
    assert.match(message, 'pricing.ai.speech: must be a whole number of credits, 0 or more, got -1')
    assert.match(message, 'pricing.ai.sing: is not a known field')
    assert.match(message, 'pricing.renderPerMinute["4k"]: must be a whole number of credits, 0 or more, got 2.5')
  }
})

test.run()
