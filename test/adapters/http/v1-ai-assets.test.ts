import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { aiProvidersFromConfig } from '../../../plugins/index.js'
import { decodeFrames, frameDiff } from '../../helpers/frames.js'
import { fakeRunway } from '../../helpers/fakes/runway.js'
import { tempDir } from '../../helpers/media.js'
import { testService } from '../../helpers/service.js'

// A render's voice-over and prompted video run on the service's AI engines as AI jobs of the render's
// account: a live key's video on the configured vendor (Runway's fake, its real client), charged from the price
// table; the local voice free; a sandbox key's both on the local engines, free. Frames are looked at.

const dir = tempDir('reelforge-ai-assets-')
const edit = {
  timeline: {
    tracks: [
      { clips: [{ asset: { type: 'caption', src: 'alias://VO', font: { size: 14 } }, start: 0, length: 'end' }] },
      { clips: [{ asset: { type: 'text-to-speech', text: 'Waves roll in.', voice: 'Matthew' }, start: 0, length: 'auto', alias: 'VO' }] },
      { clips: [{ asset: { type: 'video', prompt: 'waves rolling onto a beach' }, start: 0, length: 2 }] },
    ],
  },
  output: { format: 'mp4', size: { width: 320, height: 180 }, fps: 12 },
}

async function frames(svc: Awaited<ReturnType<typeof testService>>, url: string, name: string) {
  const path = join(dir, name)
  writeFileSync(path, Buffer.from(await (await svc.app.request(new URL(url).pathname)).arrayBuffer()))
  return decodeFrames(path, 320, 180)
}

const test = suite('timeline AI assets on the service')
test('live key: the video from the vendor, charged 10; the local voice free; both listed as AI jobs', async () => {
  const runway = await fakeRunway({ pendingPolls: 1 })
  const providers = aiProvidersFromConfig({ RUNWAYML_API_SECRET: 'key_test_runway', RUNWAYML_BASE_URL: runway.url })
  const svc = await testService({ start: true, overrides: { aiProviders: providers } })
  try {
    const before = (await svc.call('GET', '/v1/wallet')).body.balance
    const queued = await svc.call('POST', '/v1/render', { body: edit })
    assert.is(queued.status, 201, JSON.stringify(queued.body))
    const done = await svc.waitFor(queued.body.jobId, ['COMPLETE', 'FAILED'])
    assert.is(done.status, 'COMPLETE', done.error)
    const create = runway.requests.find((r) => r.method === 'POST')!
    assert.is(create.json.promptText, 'waves rolling onto a beach')
    const video = (await svc.call('GET', '/v1/ai/video')).body.jobs[0]
    assert.equal([video.status, video.provider, video.credits_used, video.duration], ['complete', 'runway-video', 10, 2])
    const speech = (await svc.call('GET', '/v1/ai/speech')).body.jobs[0]
    assert.equal([speech.status, speech.provider, speech.credits_used], ['complete', 'espeak-speech', 0])
    assert.ok(speech.words.length === 3, JSON.stringify(speech.words))
    const after = (await svc.call('GET', '/v1/wallet')).body.balance
    assert.ok(done.credits_used > 0)
    assert.is(before - after, 10 + done.credits_used, 'the render and the vendor video, nothing for the local voice')
    // Runway's clip is testsrc2: a moving test pattern, so the picture changes from frame to frame.
    const f = await frames(svc, done.url, 'live.mp4')
    assert.ok(frameDiff(f, 2, 20) > 5, `the vendor's moving clip is drawn (${frameDiff(f, 2, 20).toFixed(1)})`)
  } finally {
    await svc.close()
    await runway.close()
  }
})
test('sandbox key: the local engines make both, free, and the render says the video is a stand-in', async () => {
  const svc = await testService({ start: true, overrides: { aiProviders: aiProvidersFromConfig({}) } })
  try {
    const queued = await svc.call('POST', '/v1/render', { key: svc.sandbox, body: edit })
    const done = await svc.waitFor(queued.body.jobId, ['COMPLETE', 'FAILED'], svc.sandbox)
    assert.is(done.status, 'COMPLETE', done.error)
    assert.ok(
      done.warnings.some((w: { message: string }) => /needs an AI video provider/.test(w.message)),
      JSON.stringify(done.warnings),
    )
    const video = (await svc.call('GET', '/v1/ai/video', { key: svc.sandbox })).body.jobs[0]
    assert.equal([video.status, video.provider, video.credits_used], ['complete', 'sandbox-video', 0])
    assert.is((await svc.call('GET', '/v1/ai/video')).body.jobs.length, 0, 'the live environment sees none of it')
  } finally {
    await svc.close()
  }
})
test.run()
