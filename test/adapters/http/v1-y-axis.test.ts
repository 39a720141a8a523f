import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { decodeFrames, isRed, locate } from '../../helpers/frames.js'
import { tempDir } from '../../helpers/media.js'
import { type TestService, testService } from '../../helpers/service.js'

// One edit, a red box 0.25 of the frame above or below the centre depending on who reads offset.y: the seed's
// /v1 counts down, `--y-axis up` and Shotstack's /edit/v1 count up (as Shotstack draws its own edits).
const edit = {
  timeline: {
    background: '#000000',
    tracks: [
      {
        clips: [
          {
            asset: { type: 'shape', shape: 'rectangle', rectangle: { width: 64, height: 64 }, fill: { color: '#ff0000' } },
            start: 0,
            length: 1,
            offset: { x: 0, y: 0.25 },
          },
        ],
      },
    ],
  },
  output: { format: 'mp4', size: { width: 320, height: 180 } },
}
const dir = tempDir('reelforge-yaxis-')

/** Where the red box's centre lands (y in pixels, 0 = top) through `path` on `svc`. */
async function redY(svc: TestService, path: string, headers: Record<string, string>): Promise<number> {
  const res = await svc.app.request(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(edit) })
  const body = (await res.json()) as any
  assert.is(res.status, 201, JSON.stringify(body))
  const done = await svc.waitFor(body.jobId ?? body.response.id, ['COMPLETE', 'FAILED'])
  assert.is(done.status, 'COMPLETE', done.error)
  const file = join(dir, `${done.id}.mp4`)
  writeFileSync(file, Buffer.from(await (await svc.app.request(new URL(done.url).pathname)).arrayBuffer()))
  const red = locate(await decodeFrames(file, 320, 180), 0, isRed)
  assert.ok(red.count > 2000, `the box is drawn (${red.count} px)`)
  return red.y
}

test('/v1 counts offset.y down by default, up with --y-axis up; /edit/v1 always up', async () => {
  const down = await testService({ start: true })
  const up = await testService({ start: true, config: { yAxis: 'up', shotstack: true } })
  try {
    const mirrored = await redY(down, '/v1/render', { authorization: `Bearer ${down.live}` })
    assert.ok(Math.abs(mirrored - 135) < 3, `y down: centre at ${mirrored}, expected 90 + 45`)
    const upright = await redY(up, '/v1/render', { authorization: `Bearer ${up.live}` })
    assert.ok(Math.abs(upright - 45) < 3, `y up: centre at ${upright}, expected 90 − 45`)
    const shotstack = await redY(up, '/edit/v1/render', { 'x-api-key': up.live })
    assert.is(shotstack, upright, "Shotstack's surface draws as /v1 with --y-axis up")
  } finally {
    for (const svc of [down, up]) {
      await svc.close()
    }
  }
})

test.run()
