import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { openaiProvider } from '../../../index.js'
import { aiProvidersFromConfig } from '../../../plugins/index.js'
import { type Billing, freeBilling } from '../../../service/billing/billing.js'
import { fakeOpenAI } from '../../helpers/fake-vendors.js'
import { testService, titleEdit } from '../../helpers/service.js'

// `createService(config, { billing })` replaces the wallet for every paid job: renders, AI images, AI jobs and
// Create API assets all hold, charge and release through it. Here it is `freeBilling` on an account with no
// credits: each is done, charged 0, and the wallet's ledger stays empty (a wallet would answer 402 to each).

/** `freeBilling`, noting the verb of each call in order. */
function noted(calls: string[]): Billing {
  const verbs = Object.entries(freeBilling).map(([verb, run]) => [verb, (...args: never[]) => (calls.push(verb), (run as (...a: never[]) => unknown)(...args))])
  return Object.fromEntries(verbs) as Billing
}

test('a billing override is what renders, images, AI jobs and Create assets spend through; the wallet is untouched', async () => {
  const openai = await fakeOpenAI('#ff0000')
  const calls: string[] = []
  const svc = await testService({
    start: true,
    credits: 0,
    config: { shotstack: true },
    overrides: { billing: noted(calls), providers: [openaiProvider({ apiKey: 'sk-test', baseUrl: openai.url })], aiProviders: aiProvidersFromConfig({}) },
  })
  /** The verbs called since the last look. */
  const since = () => calls.splice(0)
  try {
    const image = await svc.call('POST', '/v1/ai/image', { body: { prompt: 'a red kite', model: 'dall-e-3' } })
    assert.is(image.status, 200, JSON.stringify(image.body))
    assert.equal([image.body.provider, image.body.credits_used], ['openai', 0])
    assert.equal(since(), ['hold', 'charge'], 'the image')

    const queued = await svc.call('POST', '/v1/ai/speech', { body: { text: 'paid by the override', format: 'wav' } })
    assert.is(queued.status, 202, JSON.stringify(queued.body))
    await svc.aiJobs.idle()
    const speech = (await svc.call('GET', `/v1/ai/speech/${queued.body.id}`)).body
    assert.equal([speech.status, speech.provider, speech.credits_used], ['complete', 'espeak-speech', 0], speech.error)
    assert.equal(since(), ['hold', 'charge', 'balance'], 'the AI job (its event reports the balance)')

    const body = { provider: 'shotstack', options: { type: 'text-to-speech', text: 'an asset paid by the override', voice: 'Matthew' } }
    const posted = await svc.call('POST', '/create/v1/assets', { key: null, headers: { 'x-api-key': svc.live }, body })
    assert.is(posted.status, 201, JSON.stringify(posted.body))
    let asset = posted.body.data.attributes
    for (const until = Date.now() + 60_000; asset.status !== 'done' && asset.status !== 'failed' && Date.now() < until; ) {
      await new Promise((r) => setTimeout(r, 100))
      asset = (await svc.call('GET', `/create/v1/assets/${posted.body.data.id}`, { key: null, headers: { 'x-api-key': svc.live } })).body.data.attributes
    }
    assert.is(asset.status, 'done', JSON.stringify(asset))
    assert.equal(since(), ['hold', 'charge'], 'the Create asset')

    const render = await svc.call('POST', '/v1/render', { body: titleEdit(1) })
    assert.is(render.status, 201, JSON.stringify(render.body))
    const done = await svc.waitFor(render.body.jobId, ['COMPLETE', 'FAILED'])
    assert.equal([done.status, done.credits_used], ['COMPLETE', 0], done.error)
    assert.equal(since(), ['holdRender', 'holdPlanned', 'settleRender'], 'the render')

    assert.equal(await svc.wallet.ledger(svc.liveAccount), [], 'nothing held or charged in the wallet')
  } finally {
    await svc.close()
    await openai.close()
  }
})

test.run()
