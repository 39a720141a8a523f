import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { probe } from '../../../core/index.js'
import { aiProvidersFromConfig } from '../../../plugins/index.js'
import { chatAnswers, fakeOpenAIChat } from '../../helpers/fakes/openai-chat.js'
import { tempDir } from '../../helpers/media.js'
import { testService } from '../../helpers/service.js'

// Prompt to finished video through /v1: the script from the text engine (the sandbox's offline, OpenAI's fake
// for a live key), the edit back, and with `render: true` a normal render whose length is the narration's.

const dir = tempDir('reelforge-storyboard-')
const test = suite('POST /v1/ai/storyboard')

test('sandbox key, offline: the edit renders, and the video lasts exactly what its narration takes', async () => {
  const svc = await testService({ start: true, overrides: { aiProviders: aiProvidersFromConfig({}) } })
  try {
    const body = { prompt: 'a fox crossing a frozen river', duration: 10, resolution: 'preview', voice: 'Joanna', render: true }
    const r = await svc.call('POST', '/v1/ai/storyboard', { key: svc.sandbox, body })
    assert.is(r.status, 201, JSON.stringify(r.body))
    assert.ok(r.body.stand_in)
    assert.ok(r.body.scenes.length >= 2 && r.body.title.length > 3, JSON.stringify(r.body))
    assert.ok(r.body.edit.timeline.tracks.length === 4 && r.body.edit.output.resolution === 'preview')
    const done = await svc.waitFor(r.body.render.jobId, ['COMPLETE', 'FAILED'], svc.sandbox, 120_000)
    assert.is(done.status, 'COMPLETE', done.error)
    // Each scene's narration is a speech job of the render (free on a sandbox key); their lengths add up to the video's.
    const speech = (await svc.call('GET', '/v1/ai/speech', { key: svc.sandbox })).body.jobs
    assert.is(speech.length, r.body.scenes.length)
    assert.ok(speech.every((j: { credits_used: number; provider: string }) => j.credits_used === 0 && j.provider === 'espeak-speech'))
    const narration = speech.reduce((s: number, j: { duration: number }) => s + j.duration, 0)
    const file = join(dir, 'story.mp4')
    writeFileSync(file, Buffer.from(await (await svc.app.request(new URL(done.url).pathname)).arrayBuffer()))
    const info = await probe(file)
    assert.ok(Math.abs(info.duration! - narration) <= r.body.scenes.length / 25 + 0.05, `${info.duration} s video, ${narration} s narration`)
    assert.ok(
      info.streams.some((s) => s.type === 'audio'),
      'narrated',
    )
  } finally {
    await svc.close()
  }
})

test("a live key's script comes from the configured text model, charged as a text job; no render unless asked", async () => {
  const openai = await fakeOpenAIChat({ reply: () => '**The Fox**\n1. A fox steps onto the ice.\n2. It reaches the far bank.' })
  const svc = await testService({ overrides: { aiProviders: aiProvidersFromConfig({ OPENAI_API_KEY: 'sk-test', OPENAI_TEXT_BASE_URL: openai.url }) } })
  try {
    const before = (await svc.call('GET', '/v1/wallet')).body.balance
    const r = await svc.call('POST', '/v1/ai/storyboard', { body: { prompt: 'a fox crossing a frozen river', duration: 8 } })
    assert.is(r.status, 200, JSON.stringify(r.body))
    assert.equal(
      [r.body.title, r.body.scenes, r.body.stand_in, r.body.render],
      ['The Fox', ['A fox steps onto the ice.', 'It reaches the far bank.'], false, null],
    )
    assert.match(openai.requests[0]!.json.messages[0].content, /one line per scene/)
    const text = (await svc.call('GET', '/v1/ai/text')).body.jobs
    assert.equal([text.length, text[0].provider, text[0].credits_used], [1, 'openai-text', 1])
    assert.is((await svc.call('GET', '/v1/wallet')).body.balance, before - 1)
    assert.is((await svc.call('GET', '/v1/render')).body.renders.length, 0, 'nothing rendered')
  } finally {
    await svc.close()
    await openai.close()
  }
})

test("the text vendor's content refusal is a 422 saying so (not a 502), and costs nothing", async () => {
  const openai = await fakeOpenAIChat()
  const svc = await testService({ overrides: { aiProviders: aiProvidersFromConfig({ OPENAI_API_KEY: 'sk-test', OPENAI_TEXT_BASE_URL: openai.url }) } })
  try {
    const before = (await svc.call('GET', '/v1/wallet')).body
    openai.push(chatAnswers.policyViolation())
    const r = await svc.call('POST', '/v1/ai/storyboard', { body: { prompt: 'something forbidden', render: true } })
    assert.is(r.status, 422, JSON.stringify(r.body))
    assert.is(r.body.error.code, 'E_CONTENT_MODERATED')
    assert.match(r.body.error.message, /content policy|safety system/)
    assert.not.match(r.body.error.message, /sk-test/)
    const after = (await svc.call('GET', '/v1/wallet')).body
    assert.equal([after.balance, after.held], [before.balance, 0], 'refused: nothing charged or held')
    assert.is((await svc.call('GET', '/v1/render')).body.renders.length, 0, 'nothing rendered')
  } finally {
    await svc.close()
    await openai.close()
  }
})

test('a strict body: every rule is a 400 naming the field', async () => {
  const svc = await testService()
  try {
    for (const [body, field] of [
      [{}, 'prompt'],
      [{ prompt: 'x', duration: 1 }, 'duration'],
      [{ prompt: 'x', aspectRatio: '2:1' }, 'aspectRatio'],
      [{ prompt: 'x', render: 'yes' }, 'render'],
      [{ prompt: 'x', scenes: 4 }, 'scenes'],
      // A callback is a render's: without render it would be dropped unchecked (a private address said nothing).
      [{ prompt: 'x', callback: 'http://10.0.0.1/hook' }, 'callback'],
    ] as const) {
      const r = await svc.call('POST', '/v1/ai/storyboard', { key: svc.sandbox, body })
      assert.is(r.status, 400, JSON.stringify(r.body))
      assert.ok(JSON.stringify(r.body).includes(field), `${field}: ${JSON.stringify(r.body)}`)
    }
  } finally {
    await svc.close()
  }
})
test.run()
