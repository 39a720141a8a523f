import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openaiTextProvider } from '../../plugins/providers/ai/openai-text.js'
import { sandboxTextProvider } from '../../plugins/providers/ai/sandbox-text.js'
import { chatAnswers, fakeOpenAIChat } from '../helpers/fakes/openai-chat.js'
import { openaiError } from '../helpers/fakes/openai-common.js'
import { rejectsWith } from '../helpers/rejects.js'

const ctx = { signal: new AbortController().signal, workDir: '/nonexistent' }
const req = (extra: object = {}) => ({ prompt: 'a lighthouse at dusk', model: 'gpt-4o-mini', ...extra })

const fails = rejectsWith

const openai = suite('openai text (chat completions)')
openai('request as OpenAI expects it: path, Bearer key, JSON body; the answer is the text', async () => {
  const fake = await fakeOpenAIChat()
  const p = openaiTextProvider({ apiKey: 'sk-test', baseUrl: fake.url })
  assert.is(p.task, 'text')
  assert.equal(p.models, ['gpt-4o-mini', 'gpt-4o'])
  const out = await p.run(req(), ctx)
  assert.equal(out, { text: 'echo: a lighthouse at dusk' })
  const r = fake.requests[0]!
  assert.is(r.method, 'POST')
  assert.is(r.path, '/v1/chat/completions')
  assert.is(r.headers.authorization, 'Bearer sk-test')
  assert.match(String(r.headers['content-type']), /application\/json/)
  assert.equal(r.json, { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'a lighthouse at dusk' }] })
  await fake.close()
})
openai('system prompt first, max_tokens passed; configured upstream model and models; a /v1 base URL works', async () => {
  const fake = await fakeOpenAIChat({ apiKey: null, reply: () => '  Scene one.\n' })
  const p = openaiTextProvider({ baseUrl: `${fake.url}/v1/`, model: 'llama3.2', models: ['gpt-4o-mini', 'llama'] })
  assert.equal(p.models, ['gpt-4o-mini', 'llama'])
  const out = await p.run(req({ system: 'You write short video scripts.', maxTokens: 120 }), ctx)
  assert.is(out.text, 'Scene one.')
  const r = fake.requests[0]!
  assert.is(r.path, '/v1/chat/completions')
  assert.is(r.headers.authorization, undefined, 'no key, no header (Ollama, llama.cpp)')
  assert.equal(r.json, {
    model: 'llama3.2',
    messages: [
      { role: 'system', content: 'You write short video scripts.' },
      { role: 'user', content: 'a lighthouse at dusk' },
    ],
    max_tokens: 120,
  })
  await fake.close()
})
openai('429 with retry-after is honoured; a 500 is retried', async () => {
  const fake = await fakeOpenAIChat()
  const p = openaiTextProvider({ apiKey: 'sk-test', baseUrl: fake.url })
  fake.push(chatAnswers.rateLimited('0.3'), chatAnswers.serverError())
  const t = performance.now()
  assert.is((await p.run(req(), ctx)).text, 'echo: a lighthouse at dusk')
  assert.is(fake.requests.length, 3)
  assert.ok(performance.now() - t >= 300, 'waited for retry-after')
  fake.push(chatAnswers.rateLimited('120'))
  await fails(p.run(req(), ctx), 'E_PROVIDER_FAILED', /rate limited by the provider \(HTTP 429\)/)
  fake.push(chatAnswers.serverError(), chatAnswers.serverError())
  await fails(openaiTextProvider({ apiKey: 'sk-test', baseUrl: fake.url, retries: 1 }).run(req(), ctx), 'E_PROVIDER_FAILED', /HTTP 500/)
  await fake.close()
})
openai('content refusals are moderation errors: a 400 policy violation and a filtered answer', async () => {
  const fake = await fakeOpenAIChat()
  const p = openaiTextProvider({ apiKey: 'sk-test', baseUrl: fake.url })
  fake.push(chatAnswers.policyViolation())
  const a = await fails(p.run(req(), ctx), 'E_PROVIDER_FAILED', /content moderation \(Your request was rejected/)
  assert.is(a.data?.moderated, true)
  fake.push(chatAnswers.contentFilter())
  const b = await fails(p.run(req(), ctx), 'E_PROVIDER_FAILED', /content moderation \(the answer was filtered\)/)
  assert.is(b.data?.moderated, true)
  await fake.close()
})
openai('a slow answer is E_PROVIDER_TIMEOUT', async () => {
  const fake = await fakeOpenAIChat()
  fake.push(chatAnswers.slow(1500))
  const p = openaiTextProvider({ apiKey: 'sk-test', baseUrl: fake.url, timeoutMs: 200, retries: 0 })
  await fails(p.run(req(), ctx), 'E_PROVIDER_TIMEOUT', /no answer within 200 ms/)
  await fake.close()
})
openai('the API key never appears in an error, even when the vendor echoes it', async () => {
  const fake = await fakeOpenAIChat()
  const secret = 'sk-wrong-secret-4242'
  const e = await fails(
    openaiTextProvider({ apiKey: secret, baseUrl: fake.url }).run(req(), ctx),
    'E_PROVIDER_FAILED',
    /the OpenAI key was refused \(HTTP 401\)/,
  )
  assert.not.match(e.message, /4242|sk-wr/)
  assert.not.match(JSON.stringify(e.data), /4242/)
  fake.push(openaiError(400, `bad request from key ${secret}`, 'invalid_request_error', null))
  const f = await fails(openaiTextProvider({ apiKey: secret, baseUrl: fake.url }).run(req(), ctx), 'E_PROVIDER_FAILED', /HTTP 400/)
  assert.not.match(f.message, /secret/)
  await fake.close()
})
openai.run()

const sandbox = suite('sandbox text')
sandbox('local, deterministic, and different for different prompts', async () => {
  assert.is(sandboxTextProvider.local, true)
  assert.equal(sandboxTextProvider.models, ['sandbox'])
  const a = await sandboxTextProvider.run(req({ model: 'gpt-4o' }), ctx)
  const again = await sandboxTextProvider.run(req({ model: 'anything' }), ctx)
  assert.is(a.text, again.text)
  const b = await sandboxTextProvider.run(req({ prompt: 'a cat chasing butterflies in a garden' }), ctx)
  assert.is.not(a.text, b.text)
  const c = await sandboxTextProvider.run(req({ system: 'Be brief.' }), ctx)
  assert.is.not(a.text, c.text, 'the system prompt changes the text')
})
sandbox('reads like a script: a title line, then 3–6 scene sentences from the prompt', async () => {
  for (const prompt of ['a lighthouse at dusk', 'Tokyo at night, neon rain', 'x', '']) {
    const lines = (await sandboxTextProvider.run(req({ prompt }), ctx)).text.split('\n')
    assert.ok(lines.length >= 4 && lines.length <= 7, `${lines.length} lines for ${JSON.stringify(prompt)}`)
    for (const s of lines.slice(1)) assert.match(s, /^[A-Z].*\.$/)
  }
  const text = (await sandboxTextProvider.run(req(), ctx)).text
  assert.is(text.split('\n')[0], 'Lighthouse at Dusk')
  assert.match(text.split('\n').slice(1).join(' '), /lighthouse|dusk/)
})
sandbox('max_tokens bounds the words', async () => {
  for (const maxTokens of [1, 5, 12, 30]) {
    const text = (await sandboxTextProvider.run(req({ maxTokens }), ctx)).text
    const words = text.split(/\s+/).length
    assert.ok(words >= 1 && words <= maxTokens, `${words} words for max_tokens ${maxTokens}`)
  }
})
sandbox.run()
