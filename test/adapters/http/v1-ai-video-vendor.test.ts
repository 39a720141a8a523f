import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { fakeLuma } from '../../helpers/fakes/luma.js'
import { solidPng, tempDir } from '../../helpers/media.js'
import { testService } from '../../helpers/service.js'

// A live key's image-to-video on Luma, configured from the environment as an operator would: Luma fetches
// start images itself, so the service publishes the job's image as one of its own files and sends that URL.

test('Luma gets the start image as a /v1/files URL of this service that serves the same bytes', async () => {
  const luma = await fakeLuma({ pendingPolls: 0 })
  const png = await solidPng(join(tempDir('reelforge-ai-luma-'), 'start.png'), 64, 36, '#22aa44')
  Object.assign(process.env, { LUMAAI_API_KEY: 'luma-test-key', LUMAAI_BASE_URL: luma.url })
  // Luma takes https URLs only: the service's public base URL is one, as in production.
  const svc = await testService({ start: true, config: { baseUrl: 'https://reelforge.test' } })
  try {
    const upload = (await svc.call('POST', '/v1/upload', { body: { filename: 'start.png' } })).body
    const url = new URL(upload.url)
    const source = await (await svc.app.request(url.pathname + url.search, { method: 'PUT', body: readFileSync(png) })).json()
    const queued = await svc.call('POST', '/v1/ai/video', { body: { image: source.url, prompt: 'the field sways', duration: 2, model: 'ray-2' } })
    assert.is(queued.status, 202, JSON.stringify(queued.body))
    await svc.aiJobs.idle()
    const done = (await svc.call('GET', `/v1/ai/video/${queued.body.id}`)).body
    assert.is(done.status, 'complete', `${done.error}`)
    const create = luma.requests.find((r) => r.method === 'POST')!
    const frame0 = create.json.keyframes.frame0.url as string
    assert.match(frame0, /^https:\/\/reelforge\.test\/v1\/files\/[0-9a-f-]{36}\/start\.png$/)
    const served = await svc.app.request(new URL(frame0).pathname)
    assert.ok(Buffer.from(await served.arrayBuffer()).equals(readFileSync(png)), 'the published file is the image')
  } finally {
    delete process.env.LUMAAI_API_KEY
    delete process.env.LUMAAI_BASE_URL
    await svc.close()
    await luma.close()
  }
})

test.run()
