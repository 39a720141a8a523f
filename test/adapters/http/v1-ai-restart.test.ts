import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { createService } from '../../../adapters/http/create-service.js'
import { aiProvidersFromConfig } from '../../../plugins/index.js'
import { fakeOpenAIChat } from '../../helpers/fakes/openai-chat.js'
import { startReceiver } from '../../helpers/receiver.js'
import { testService } from '../../helpers/service.js'

// A process that stops in the middle of an AI job leaves its row `processing` and its credits held. The next
// process on the same database — a new service object, new connections, nothing shared in memory — must finish
// the job, charge it once and send its webhook once.

const withOpenAI = (baseUrl: string) => aiProvidersFromConfig({ OPENAI_API_KEY: 'sk-test', OPENAI_TEXT_BASE_URL: baseUrl })

test('a job left processing by a stopped process is finished, charged and announced once by the next one', async () => {
  const openai = await fakeOpenAIChat({ reply: (body) => `SCRIPT for ${body.messages.at(-1).content}` })
  const rx = await startReceiver()
  const first = await testService({ overrides: { aiProviders: withOpenAI(openai.url) } })
  const auth = { authorization: `Bearer ${first.live}` }
  const before = (await first.call('GET', '/v1/wallet')).body
  const queued = await first.call('POST', '/v1/ai/text', { body: { prompt: 'a storm', callback: `${rx.url}/hook` } })
  assert.is(queued.status, 202, JSON.stringify(queued.body))
  // As the runner leaves it when the process dies mid-call: marked processing, credits held, no answer yet.
  await first.db.run("UPDATE ai_jobs SET status = 'processing', provider = 'openai-text' WHERE id = ?", [queued.body.id])
  assert.is((await first.call('GET', '/v1/wallet')).body.held, 1, 'the price is held while it runs')
  await first.close()
  assert.is(openai.requests.length, 0, 'the first process never reached the vendor')

  const second = await createService(first.config, { aiProviders: withOpenAI(openai.url) })
  try {
    await second.start()
    await second.aiJobs.idle()
    const res = await second.app.request(`/v1/ai/text/${queued.body.id}`, { headers: auth })
    const done = (await res.json()) as Record<string, unknown>
    assert.equal([done.status, done.text, done.credits_used], ['complete', 'SCRIPT for a storm', 1])
    const wallet = (await (await second.app.request('/v1/wallet', { headers: auth })).json()) as { balance: number; held: number }
    assert.equal([wallet.balance, wallet.held], [before.balance - 1, 0], 'charged once, nothing left held')
    const hooks = await rx.waitFor(1)
    await new Promise((r) => setTimeout(r, 300)) // a second delivery would have arrived by now
    assert.equal(
      rx.received.map((h) => h.json.event),
      ['ai.complete'],
      'one webhook',
    )
    assert.is(hooks[0]!.json.data.id, queued.body.id)
    assert.is(openai.requests.length, 1, 'the vendor was called once')
  } finally {
    await second.close()
    await openai.close()
    await rx.close()
  }
})

test.run()
