import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { decodeFrames, mean, near } from '../../helpers/frames.js'
import { tempDir } from '../../helpers/media.js'
import { testService, titleEdit } from '../../helpers/service.js'

// Watching a render without polling (Server-Sent Events), and one frame of an edit before rendering it.

const dir = tempDir('reelforge-live-')
// Blue for the first second, then red: a frame says which second it is.
const edit = {
  timeline: {
    background: '#0000ff',
    tracks: [
      { clips: [{ asset: { type: 'shape', shape: 'rectangle', rectangle: { width: 320, height: 180 }, fill: { color: '#ff0000' } }, start: 1, length: 1 }] },
    ],
  },
  output: { format: 'mp4', size: { width: 320, height: 180 }, fps: 25 },
}
const events = (text: string) =>
  text
    .split('\n\n')
    .filter((block) => block.startsWith('event:'))
    .map((block) => ({ event: /^event: (\w+)/.exec(block)![1], data: JSON.parse(/^data: (.*)$/m.exec(block)![1]!) }))

const test = suite('live render events and frame previews')
test('GET /v1/render/{id}/events: updates as the render goes, then done with the final record', async () => {
  const svc = await testService({ start: true })
  try {
    const { body } = await svc.call('POST', '/v1/render', { body: titleEdit(3, { size: { width: 320, height: 180 } }) })
    const res = await svc.app.request(`/v1/render/${body.jobId}/events`, { headers: { authorization: `Bearer ${svc.live}` } })
    assert.is(res.status, 200)
    assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/)
    const seen = events(await res.text())
    assert.ok(seen.length >= 2, JSON.stringify(seen))
    const done = seen.at(-1)!
    assert.equal([done.event, done.data.status, done.data.id], ['done', 'COMPLETE', body.jobId])
    assert.match(done.data.url, /\/v1\/files\//)
    assert.ok(seen.slice(0, -1).every((e) => e.event === 'update' && e.data.status !== 'COMPLETE'))
    const progress = seen.map((e) => e.data.progress)
    assert.ok(
      progress.every((p, i) => i === 0 || p >= progress[i - 1]),
      `progress only grows: ${progress}`,
    )
    const other = await svc.app.request('/v1/render/00000000-0000-4000-8000-000000000000/events', { headers: { authorization: `Bearer ${svc.live}` } })
    assert.is(other.status, 404)
    assert.match(other.headers.get('content-type') ?? '', /json/)
  } finally {
    await svc.close()
  }
})
test('POST /v1/render/frame: the frame at `time` as PNG; nothing stored or charged; bad edits 400; rate-limited', async () => {
  const svc = await testService({ config: { rateLimits: { 'frame-preview': 2 } } })
  try {
    const before = (await svc.call('GET', '/v1/wallet')).body.balance
    for (const [time, colour] of [
      [0.5, [0, 0, 255]],
      [1.5, [255, 0, 0]],
    ] as const) {
      const res = await svc.app.request('/v1/render/frame', {
        method: 'POST',
        headers: { authorization: `Bearer ${svc.live}`, 'content-type': 'application/json' },
        body: JSON.stringify({ ...edit, time }),
      })
      assert.is(res.status, 200, await res.clone().text())
      assert.is(res.headers.get('content-type'), 'image/png')
      const png = join(dir, `frame-${time}.png`)
      writeFileSync(png, Buffer.from(await res.arrayBuffer()))
      const rgb = mean(await decodeFrames(png, 320, 180), 0, 100, 60, 220, 120)
      assert.ok(near(rgb, colour), `t ${time}: ${rgb}`)
    }
    const bad = await svc.call('POST', '/v1/render/frame', { body: { ...edit, time: -1 } })
    assert.is(bad.status, 400)
    assert.match(JSON.stringify(bad.body), /time/)
    const invalid = await svc.call('POST', '/v1/render/frame', { body: { ...edit, output: { ...edit.output, fps: 7 } } })
    assert.is(invalid.status, 400)
    assert.match(JSON.stringify(invalid.body), /output\.fps/)
    const limited = await svc.call('POST', '/v1/render/frame', { body: edit })
    assert.is(limited.status, 429, 'the third frame drawn within a minute (limit 2; refused edits take no slot)')
    assert.ok(Number(limited.headers.get('retry-after')) > 0)
    assert.is((await svc.call('GET', '/v1/render')).body.renders.length, 0, 'no job stored')
    assert.is((await svc.call('GET', '/v1/wallet')).body.balance, before, 'nothing charged')
  } finally {
    await svc.close()
  }
})
test.run()
