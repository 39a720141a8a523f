import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { aiProvidersFromConfig } from '../../../plugins/index.js'
import { DEFAULT_RATE_LIMITS, OTHER_MODELS } from '../../../service/accounts/rate-limit.js'
import { testService } from '../../helpers/service.js'

// AI jobs are rate-limited per key and model out of the box (no `rateLimits` in the config): every model a
// fully configured server offers has its own default, and a used-up minute is a 429 with Retry-After. The
// services below are never started, so submitted jobs stay queued and cost nothing but a row.

test('every AI model a fully configured server offers has its own default limit', () => {
  const env = { OPENAI_API_KEY: 'sk-x', ELEVENLABS_API_KEY: 'el-x', RUNWAYML_API_SECRET: 'rw-x', LUMAAI_API_KEY: 'lu-x' }
  const models = new Set(aiProvidersFromConfig(env).flatMap((p) => p.models))
  assert.ok(models.has('gpt-4o-mini') && models.has('espeak-ng') && models.has('ray-2') && models.has('lanczos'), [...models].join())
  const missing = [...models].filter((m) => !(DEFAULT_RATE_LIMITS[m]! > 0))
  assert.equal(missing, [], `models without a default rate limit: ${missing.join(', ')}`)
  assert.ok(DEFAULT_RATE_LIMITS[OTHER_MODELS]! > 0, 'models named only in the environment are limited too')
})

test('the default config: a sandbox key on the local text engine gets 429 with Retry-After after its minute', async () => {
  const svc = await testService()
  try {
    const limit = svc.config.rateLimits.sandbox!
    assert.is(limit, DEFAULT_RATE_LIMITS.sandbox)
    for (let i = 0; i < limit; i++) {
      const r = await svc.call('POST', '/v1/ai/text', { key: svc.sandbox, body: { prompt: `scene ${i}` } })
      assert.is(r.status, 202, `request ${i + 1}: ${JSON.stringify(r.body)}`)
    }
    const refused = await svc.call('POST', '/v1/ai/text', { key: svc.sandbox, body: { prompt: 'one more' } })
    assert.is(refused.status, 429, JSON.stringify(refused.body))
    assert.is(refused.body.error.code, 'E_RATE_LIMITED')
    assert.match(refused.body.error.message, `rate limit for sandbox reached (${limit} per minute per key)`)
    const retry = Number(refused.headers.get('retry-after'))
    assert.ok(retry >= 1 && retry <= 60, `Retry-After ${retry}`)
    // Per key: the live key's own window is untouched (its text engine is a vendor it lacks: 422, not 429).
    assert.is((await svc.call('POST', '/v1/ai/text', { body: { prompt: 'hi' } })).status, 422)
  } finally {
    await svc.close()
  }
})

test('a model named only in the environment (an Ollama model) falls under the limit for other models', async () => {
  const providers = aiProvidersFromConfig({ OPENAI_TEXT_BASE_URL: 'http://127.0.0.1:9/v1', REELFORGE_TEXT_MODELS: 'llama3.2' })
  const svc = await testService({ overrides: { aiProviders: providers } })
  try {
    const limit = DEFAULT_RATE_LIMITS[OTHER_MODELS]!
    const post = () => svc.call('POST', '/v1/ai/text', { body: { prompt: 'a fox', model: 'llama3.2' } })
    for (let i = 0; i < limit; i++) assert.is((await post()).status, 202)
    const refused = await post()
    assert.is(refused.status, 429, JSON.stringify(refused.body))
    assert.match(refused.body.error.message, `rate limit for llama3.2 reached (${limit} per minute per key)`)
  } finally {
    await svc.close()
  }
})

test('a storyboard over its text limit is answered 429 with Retry-After at once, not kept waiting', async () => {
  const svc = await testService({ config: { rateLimits: { sandbox: 1 } } })
  try {
    const post = () => svc.call('POST', '/v1/ai/storyboard', { key: svc.sandbox, body: { prompt: 'a fox in the snow', duration: 6 } })
    assert.is((await post()).status, 200)
    const started = Date.now()
    const refused = await post()
    assert.is(refused.status, 429, JSON.stringify(refused.body))
    assert.ok(Date.now() - started < 5_000, `answered in ${Date.now() - started} ms`)
    assert.ok(Number(refused.headers.get('retry-after')) >= 1)
  } finally {
    await svc.close()
  }
})

test('a live key asking what nobody serves is told what to set, by the names docs/service.md uses', async () => {
  const svc = await testService({ overrides: { aiProviders: aiProvidersFromConfig({}) } })
  try {
    const text = await svc.call('POST', '/v1/ai/text', { body: { prompt: 'x' } })
    assert.is(text.status, 422)
    assert.match(text.body.error.message, /configure OPENAI_API_KEY, or OPENAI_TEXT_BASE_URL for an OpenAI-compatible server/)
    const heard = await svc.call('POST', '/v1/ai/transcription', { body: { src: 'https://example.com/a.mp3', model: 'whisper-1' } })
    assert.match(heard.body.error.message, /OPENAI_TRANSCRIPTION_BASE_URL for a local Whisper server/)
    const upscale = await svc.call('POST', '/v1/ai/upscale', { body: { src: 'https://example.com/a.png', model: 'nope-9' } })
    assert.match(upscale.body.error.message, /no upscale provider serves model "nope-9" here \(available: [^)]+\); name a model it offers, or none$/)
  } finally {
    await svc.close()
  }
})

test.run()
