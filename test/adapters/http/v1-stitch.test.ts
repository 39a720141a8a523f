import { join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { probe } from '../../../kit.js'
import { lavfi, tempDir } from '../../helpers/media.js'
import { testService } from '../../helpers/service.js'

const dir = tempDir()
// The clips are local files: the operator allows their folder (over the API no other file is readable).
const svc = await testService({ start: true, config: { files: { allow: [dir] } } })

test('stitch plays the clips end to end: a 1 s and a 2 s video (trimmed) make a 2.5 s video with sound', async () => {
  const a = await lavfi('testsrc2=s=160x90:r=25:d=1', join(dir, 'a.mp4'), ['-f', 'lavfi', '-i', 'sine=d=1', '-shortest', '-c:v', 'libx264', '-c:a', 'aac'])
  const b = await lavfi('testsrc2=s=160x90:r=25:d=2', join(dir, 'b.mp4'), ['-f', 'lavfi', '-i', 'sine=d=2', '-shortest', '-c:v', 'libx264', '-c:a', 'aac'])
  const r = await svc.call('POST', '/v1/stitch', {
    body: { clips: [{ src: a }, { src: b, trim: 0.5 }], output: { format: 'mp4', size: { width: 160, height: 90 }, fps: 25 } },
  })
  assert.is(r.status, 201, JSON.stringify(r.body))
  const done = await svc.waitFor(r.body.jobId, ['COMPLETE', 'FAILED'])
  assert.is(done.status, 'COMPLETE', done.error)
  assert.ok(Math.abs(done.duration - 2.5) < 0.05, `duration ${done.duration}`)
  const res = await svc.app.request(new URL(done.url).pathname)
  const file = join(dir, 'stitched.mp4')
  const { writeFileSync } = await import('node:fs')
  writeFileSync(file, Buffer.from(await res.arrayBuffer()))
  const p = await probe(file, { countFrames: true })
  assert.is(p.streams.find((s) => s.type === 'video')!.frames, 63)
  assert.ok(
    p.streams.some((s) => s.type === 'audio'),
    'sound of the clips',
  )
})

test('stitch bodies are strict: unknown fields and missing clips are 400 with paths', async () => {
  const extra = await svc.call('POST', '/v1/stitch', { body: { clips: [{ src: 'a.mp4', volume: 2 }], output: {}, colour: 'red' } })
  assert.is(extra.status, 400)
  assert.is(extra.body.error.code, 'E_VALIDATION')
  const paths = extra.body.error.issues.map((i: { path: string; message: string }) => `${i.path}: ${i.message}`)
  assert.ok(paths.includes('clips[0].volume: is not a known field') && paths.includes('colour: is not a known field'), paths.join(' | '))
  const empty = await svc.call('POST', '/v1/stitch', { body: { clips: [] } })
  assert.is(empty.status, 400)
  assert.match(JSON.stringify(empty.body.error.issues), /clips.*at least one clip/)
})

test.after(() => svc.close())
test.run()
