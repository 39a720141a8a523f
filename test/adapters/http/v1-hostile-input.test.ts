import { connect } from 'node:net'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { startServer } from '../../../adapters/http/serve.js'
import { defaultConfig } from '../../../service/config.js'
import { tempDir } from '../../helpers/media.js'
import { testService, titleEdit } from '../../helpers/service.js'

// Findings of an outside pass (a hostile client with curl): each answered as a clear 4xx, nothing logged as a crash.

const test = suite('hostile input')

test('numbers too large to represent ("1e400" parses to Infinity) are a 400 naming the path, never accepted', async () => {
  const svc = await testService()
  const video = (asset: object) => ({
    ...titleEdit(1),
    timeline: { tracks: [{ clips: [{ asset: { type: 'video', src: 'https://example.com/a.mp4', ...asset }, start: 0, length: 1 }] }] },
  })
  const cases: [object, string][] = [
    [video({ trim: '1e400' }), 'timeline.tracks[0].clips[0].asset.trim'],
    [video({ volume: '-1e400' }), 'timeline.tracks[0].clips[0].asset.volume'],
    [
      { ...titleEdit(1), timeline: { tracks: [{ clips: [{ asset: { type: 'title', text: 'x' }, start: '1e999', length: 1 }] }] } },
      'timeline.tracks[0].clips[0].start',
    ],
  ]
  for (const [body, path] of cases) {
    const r = await svc.call('POST', '/v1/render', { body })
    assert.is(r.status, 400, `${path}: ${JSON.stringify(r.body)}`)
    assert.ok(
      r.body.error.issues.some((i: { path: string }) => i.path === path),
      JSON.stringify(r.body.error.issues),
    )
  }
  assert.is(await svc.jobs.queued(), 0)
  await svc.close()
})

test('a file name with ".." is a 404, not a 500 with a stack', async () => {
  const svc = await testService()
  for (const method of ['GET', 'HEAD']) {
    const r = await svc.call(method, '/v1/files/01a20ce7-8b37-7fdb-8d84-673a94586c83/x..mp4', { key: null })
    assert.is(r.status, 404, method)
    if (method === 'GET') assert.is(r.body.error.code, 'E_NOT_FOUND')
  }
  await svc.close()
})

test('an edit with 220,000 unknown keys answers a short warnings list: the first 100 and a count', async () => {
  const svc = await testService()
  const edit = titleEdit(1) as Record<string, any>
  for (let i = 0; i < 220_000; i++) edit.timeline[`k${i}`] = 1
  const r = await svc.call('POST', '/v1/render/validate', { body: edit })
  assert.is(r.status, 200)
  assert.is(r.body.warnings.length, 101)
  assert.match(r.body.warnings[100].message, /219900 more warnings/)
  assert.ok(JSON.stringify(r.body).length < 20_000, 'the answer stays small')
  await svc.close()
})

test('a client that goes away mid-body leaves one log line, no stack', async () => {
  const server = await startServer(defaultConfig({ dataDir: tempDir('reelforge-abort-'), port: 0 }))
  const key = (await server.service.keys.create()).key
  const lines: string[] = []
  const [warn, error] = [console.warn, console.error]
  console.warn = console.error = (...a: unknown[]) => void lines.push(a.map((x) => (x instanceof Error ? x.stack : String(x))).join(' '))
  try {
    const socket = connect(Number(new URL(server.url).port), '127.0.0.1')
    await new Promise((r) => socket.once('connect', r))
    socket.write(
      `POST /v1/render HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${key}\r\ncontent-type: application/json\r\ncontent-length: 5000\r\n\r\n{"timeline":`,
    )
    await new Promise((r) => setTimeout(r, 200))
    socket.destroy()
    for (let i = 0; i < 50 && !lines.length; i++) await new Promise((r) => setTimeout(r, 20))
  } finally {
    ;[console.warn, console.error] = [warn, error]
  }
  assert.is(lines.length, 1, lines.join('\n---\n'))
  assert.match(lines[0]!, /POST \/v1\/render: .*client went away/)
  assert.not.match(lines[0]!, /\n\s+at /, 'no stack')
  await server.close()
})

test.run()

const bodies = suite('request bodies are JSON objects')
bodies('an array where a body object belongs is a 400, not an empty request (POST /v1/keys made a key from [])', async () => {
  const svc = await testService()
  const admin = (await svc.keys.create({ admin: true })).key
  for (const [method, path] of [
    ['POST', '/v1/keys'],
    ['PUT', '/v1/wallet/threshold'],
    ['POST', '/v1/ai/image'],
    ['PUT', '/v1/webhooks'],
    ['POST', '/v1/stitch'],
  ] as const) {
    const r = await svc.call(method, path, { key: admin, raw: '[]', headers: { 'content-type': 'application/json' } })
    assert.is(r.status, 400, `${method} ${path}: ${JSON.stringify(r.body)}`)
  }
  assert.is((await svc.keys.list(svc.liveAccount)).length, 1, 'no key was made')
  await svc.close()
})
bodies.run()

const sandbox = suite('sandbox renders: paths refer to the edit as the client sent it')
sandbox("a render-time warning and error name the client's track, not the one the watermark pushed down", async () => {
  const svc = await testService({ start: true })
  const missing = '/v1/files/00000000-0000-4000-8000-000000000000/missing.png'
  const edit = {
    ...titleEdit(1),
    timeline: {
      tracks: [
        { clips: [{ asset: { type: 'text', text: 'hi', font: { family: 'No Such Family' } }, start: 0, length: 1 }] },
        { clips: [{ asset: { type: 'title', text: 'x' }, start: 0, length: 1 }] },
      ],
    },
  }
  const warned = await svc.call('POST', '/v1/render', { key: svc.sandbox, body: edit })
  const done = await svc.waitFor(warned.body.jobId, ['COMPLETE', 'FAILED'], svc.sandbox)
  assert.is(done.status, 'COMPLETE', done.error)
  const font = done.warnings.find((w: { message: string }) => /No Such Family/.test(w.message))
  assert.ok(font, JSON.stringify(done.warnings))
  assert.match(font.path, /^timeline\.tracks\[0\]\.clips\[0\]/)
  assert.ok(
    done.warnings.every((w: { path: string }) => !/tracks\[2\]/.test(w.path)),
    "no path past the client's tracks",
  )
  edit.timeline.tracks[1]!.clips[0]!.asset = { type: 'image', src: missing } as never
  const failing = await svc.call('POST', '/v1/render', { key: svc.sandbox, body: edit })
  const failed = await svc.waitFor(failing.body.jobId, ['COMPLETE', 'FAILED'], svc.sandbox)
  assert.is(failed.status, 'FAILED')
  assert.match(failed.error, /^timeline\.tracks\[1\]\.clips\[0\]\.asset\.src/, failed.error)
  await svc.close()
})
sandbox.run()
