import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { verifyWebhook } from '../../../index.js'
import { aiProvidersFromConfig } from '../../../plugins/index.js'
import { chatAnswers, fakeOpenAIChat } from '../../helpers/fakes/openai-chat.js'
import { startReceiver } from '../../helpers/receiver.js'
import { testService } from '../../helpers/service.js'

// AI jobs through /v1 as a client sees them: 202 at once, poll or a signed webhook, the sandbox's local
// engines free, a live key's vendor (here a fake OpenAI speaking its wire protocol) charged on success only.

const local = () => aiProvidersFromConfig({})
const withOpenAI = (baseUrl: string) => aiProvidersFromConfig({ OPENAI_API_KEY: 'sk-test', OPENAI_TEXT_BASE_URL: baseUrl })
const ended = async (svc: Awaited<ReturnType<typeof testService>>, kind: string, id: string, key?: string) => {
  await svc.aiJobs.idle()
  return (await svc.call('GET', `/v1/ai/${kind}/${id}`, { key })).body
}

test('a sandbox key: text from the local stand-in, 202 then complete, free, the same text for the same prompt', async () => {
  const svc = await testService({ start: true, overrides: { aiProviders: local() } })
  try {
    const post = () => svc.call('POST', '/v1/ai/text', { key: svc.sandbox, body: { prompt: 'a lighthouse keeper finds a map' } })
    const queued = await post()
    assert.is(queued.status, 202, JSON.stringify(queued.body))
    assert.equal([queued.body.status, queued.body.kind], ['queued', 'text'])
    const done = await ended(svc, 'text', queued.body.id, svc.sandbox)
    assert.equal([done.status, done.provider, done.credits_used], ['complete', 'sandbox-text', 0])
    assert.match(done.text, /lighthouse/i)
    const again = await ended(svc, 'text', (await post()).body.id, svc.sandbox)
    assert.is(again.text, done.text, 'deterministic')
    assert.is((await svc.call('GET', `/v1/ai/text/${done.id}`)).status, 404, 'a live key does not see sandbox jobs')
  } finally {
    await svc.close()
  }
})

test('a live key without a text vendor gets a 422 saying what to configure; never the stand-in', async () => {
  const svc = await testService({ start: true, overrides: { aiProviders: local() } })
  try {
    const r = await svc.call('POST', '/v1/ai/text', { body: { prompt: 'hello' } })
    assert.is(r.status, 422, JSON.stringify(r.body))
    assert.match(r.body.error.message, /OPENAI_API_KEY/)
  } finally {
    await svc.close()
  }
})

test('a live key on OpenAI: charged on success, a signed ai.complete; a vendor failure releases the hold', async () => {
  const openai = await fakeOpenAIChat({ reply: (body) => `SCRIPT for ${body.messages.at(-1).content}` })
  const rx = await startReceiver()
  const svc = await testService({ start: true, overrides: { aiProviders: withOpenAI(openai.url) } })
  try {
    const before = (await svc.call('GET', '/v1/wallet')).body
    const queued = await svc.call('POST', '/v1/ai/text', { body: { prompt: 'a cat', system: 'be brief', max_tokens: 50, callback: `${rx.url}/hook` } })
    assert.is(queued.status, 202, JSON.stringify(queued.body))
    const done = await ended(svc, 'text', queued.body.id)
    assert.equal([done.status, done.model, done.provider, done.text, done.credits_used], ['complete', 'gpt-4o-mini', 'openai-text', 'SCRIPT for a cat', 1])
    assert.equal(openai.requests[0]!.json.messages[0], { role: 'system', content: 'be brief' })
    const [hook] = await rx.waitFor(1)
    assert.is(hook!.json.event, 'ai.complete')
    assert.equal(hook!.json.data, { id: done.id, kind: 'text', status: 'complete', url: null, credits_used: 1, wallet_balance: before.balance - 1 })
    assert.ok(verifyWebhook(hook!.body, hook!.headers['x-reelforge-signature'] as string, svc.signingSecret))

    openai.push(chatAnswers.policyViolation())
    const refused = await ended(svc, 'text', (await svc.call('POST', '/v1/ai/text', { body: { prompt: 'something forbidden' } })).body.id)
    assert.equal([refused.status, refused.credits_used], ['failed', 0])
    assert.match(refused.error, /content policy/)
    const after = (await svc.call('GET', '/v1/wallet')).body
    assert.equal([after.balance, after.held], [before.balance - 1, 0], 'the failure cost nothing and holds nothing')
  } finally {
    await svc.close()
    await openai.close()
    await rx.close()
  }
})

test('bad bodies are 400s naming the field; no credits is 402 and leaves no job; the rate limit is 429', async () => {
  const openai = await fakeOpenAIChat()
  const svc = await testService({ start: true, credits: 0, config: { rateLimits: { 'gpt-4o-mini': 2 } }, overrides: { aiProviders: withOpenAI(openai.url) } })
  try {
    const bad = async (kind: string, body: unknown, path: string) => {
      const r = await svc.call('POST', `/v1/ai/${kind}`, { key: svc.sandbox, body })
      assert.is(r.status, 400, `${kind} ${JSON.stringify(body)}: ${JSON.stringify(r.body)}`)
      assert.ok(
        r.body.error.issues.some((i: { path: string }) => i.path === path),
        JSON.stringify(r.body.error.issues),
      )
    }
    await bad('text', { prompt: '' }, 'prompt')
    await bad('text', { prompt: 'x', temperature: 2 }, 'temperature')
    await bad('speech', { text: 'hi', speed: 9 }, 'speed')
    await bad('transcription', { src: 'file:///etc/passwd' }, 'src')
    await bad('video', { duration: 5 }, 'prompt')
    await bad('upscale', { src: 'https://example.com/a.png', target: '4k', scale: 2 }, 'scale')
    const poor = await svc.call('POST', '/v1/ai/text', { body: { prompt: 'hello' } })
    assert.is(poor.status, 402, JSON.stringify(poor.body))
    assert.equal((await svc.call('GET', '/v1/ai/text')).body.jobs, [], 'nothing stays behind a 402')
    // Every attempt takes a slot of the minute's 2, the refused one too (as for images).
    await svc.wallet.deposit(svc.liveAccount, 10, 'test')
    assert.is((await svc.call('POST', '/v1/ai/text', { body: { prompt: 'one' } })).status, 202)
    const limited = await svc.call('POST', '/v1/ai/text', { body: { prompt: 'two' } })
    assert.is(limited.status, 429)
    assert.ok(Number(limited.headers.get('retry-after')) >= 1)
  } finally {
    await svc.close()
    await openai.close()
  }
})

test('a job left queued by a stopped process is run by the next start', async () => {
  const svc = await testService({ overrides: { aiProviders: local() } })
  try {
    const queued = await svc.call('POST', '/v1/ai/text', { key: svc.sandbox, body: { prompt: 'resume me' } })
    assert.is(queued.status, 202)
    await svc.aiJobs.stop() // never started: the job waits in the database
    assert.is((await svc.call('GET', `/v1/ai/text/${queued.body.id}`, { key: svc.sandbox })).body.status, 'queued')
    await svc.start()
    assert.is((await ended(svc, 'text', queued.body.id, svc.sandbox)).status, 'complete')
  } finally {
    await svc.close()
  }
})

test.run()
