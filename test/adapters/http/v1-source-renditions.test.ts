import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { ffmpegArgs, probe, runFfmpeg } from '../../../core/index.js'
import { decodeFrames, mean, near } from '../../helpers/frames.js'
import { tempDir } from '../../helpers/media.js'
import { startPythonServer } from '../../helpers/python-http.js'
import { startReceiver } from '../../helpers/receiver.js'
import { type TestService, testService } from '../../helpers/service.js'
import type { WebHost } from '../../helpers/web-hosts.js'

// Renditions (Shotstack's `outputs.renditions`) as a user meets them: a source imported from Python's
// http.server with new files asked of it, each made by ffmpeg, read back by ffprobe, served, deleted with it.

const dir = tempDir('reelforge-renditions-')
const ctx = {} as { host: WebHost; rx: Awaited<ReturnType<typeof startReceiver>>; svc: TestService }
const test = suite('/v1/sources renditions', ctx)
test.before(async () => {
  await runFfmpeg(
    ffmpegArgs`-v error -y -f lavfi -i testsrc2=s=1280x720:r=30:d=2 -f lavfi -i sine=d=2 -c:v libx264 -preset ultrafast -pix_fmt yuv420p -c:a aac -shortest ${join(dir, 'wide.mp4')}`,
  )
  // 400×200: a blue quarter, a red half, a lime quarter, so every fit leaves a different picture.
  const bands = 'color=c=red:s=400x200,drawbox=x=0:y=0:w=100:h=200:color=blue:t=fill,drawbox=x=300:y=0:w=100:h=200:color=lime:t=fill'
  await runFfmpeg(ffmpegArgs`-v error -y -f lavfi -i ${bands} -frames:v 1 ${join(dir, 'bands.png')}`)
  await runFfmpeg(ffmpegArgs`-v error -y -f lavfi -i sine=frequency=440:d=1 ${join(dir, 'tone.wav')}`)
  ctx.host = await startPythonServer(dir)
  ctx.rx = await startReceiver()
  ctx.svc = await testService({ start: true })
})
test.after(async () => {
  await ctx.svc.close()
  await ctx.host.close()
  await ctx.rx.close()
})

/** Imports `file` with `renditions` and waits for the import (renditions included) to end. */
async function imported(file: string, renditions: unknown[], callback?: string) {
  const res = await ctx.svc.call('POST', '/v1/sources', { body: { url: `${ctx.host.url}/${file}`, renditions, ...(callback ? { callback } : {}) } })
  assert.is(res.status, 201, JSON.stringify(res.body))
  assert.equal(
    res.body.renditions.map((r: { status: string }) => r.status),
    renditions.map(() => 'queued'),
  )
  await ctx.svc.importer.idle()
  return (await ctx.svc.call('GET', `/v1/sources/${res.body.id}`)).body
}

/** Downloads a hosted file and reads it with ffprobe. */
async function fetched(url: string, name: string) {
  const res = await ctx.svc.app.request(new URL(url).pathname)
  assert.is(res.status, 200, url)
  const path = join(dir, name)
  writeFileSync(path, Buffer.from(await res.arrayBuffer()))
  return { path, probe: await probe(path) }
}

test('a 1280×720 30 fps video: mp4 sd at 25 fps, a jpg, a square webm, a gif and a 9:16 png, each probed', async () => {
  const source = await imported(
    'wide.mp4',
    [
      { format: 'mp4', resolution: 'sd', fps: 25 },
      { format: 'jpg', size: { width: 320, height: 180 } },
      { format: 'webm', size: { width: 360, height: 360 }, fit: 'contain', filename: 'square', quality: 60 },
      { format: 'gif', resolution: 'preview', fps: 12 },
      { format: 'png', aspectRatio: '9:16' },
    ],
    `${ctx.rx.url}/ready`,
  )
  assert.is(source.status, 'ready', source.error)
  const [mp4, jpg, webm, gif, png] = source.renditions
  for (const r of source.renditions) assert.is(r.status, 'ready', `${JSON.stringify(r.transformation)}: ${r.error}`)
  assert.equal(mp4.transformation, { format: 'mp4', resolution: 'sd', fps: 25 })

  const a = await fetched(mp4.url, 'a.mp4')
  const v = a.probe.streams.find((s) => s.type === 'video')!
  assert.equal([v.codec, v.width, v.height, v.fps, v.pixFmt], ['h264', 1024, 576, 25, 'yuv420p'])
  assert.ok(
    a.probe.streams.some((s) => s.type === 'audio' && s.codec === 'aac'),
    'the sound is kept',
  )
  assert.equal([mp4.width, mp4.height, mp4.fps, mp4.content_type, mp4.bytes], [1024, 576, 25, 'video/mp4', a.probe.size])
  assert.ok(Math.abs(mp4.duration - 2) < 0.1, `duration ${mp4.duration}`)
  assert.match(mp4.url, new RegExp(`/v1/files/${source.id}/${mp4.id}\\.mp4$`), 'named after its id under the source')

  const b = await fetched(jpg.url, 'b.jpg')
  assert.equal([b.probe.streams[0]!.codec, b.probe.streams[0]!.width, b.probe.streams[0]!.height], ['mjpeg', 320, 180])
  assert.equal([jpg.content_type, jpg.width, jpg.height, jpg.duration, jpg.fps], ['image/jpeg', 320, 180, null, null])

  assert.match(webm.url, new RegExp(`/v1/files/${source.id}/square\\.webm$`), 'its filename')
  const c = await fetched(webm.url, 'c.webm')
  const cv = c.probe.streams.find((s) => s.type === 'video')!
  assert.equal([cv.codec, cv.width, cv.height, cv.fps], ['vp9', 360, 360, 30], 'the source fps is kept when none is asked')
  assert.ok(c.probe.streams.some((s) => s.type === 'audio' && s.codec === 'opus'))
  // contain: the 16:9 picture is 360×202 across the middle, black bars above and below.
  const frames = await decodeFrames(c.path, 360, 360)
  assert.ok(near(mean(frames, 0, 0, 0, 360, 70), [0, 0, 0], 6), 'a black bar on top')
  assert.ok(near(mean(frames, 0, 0, 300, 360, 360), [0, 0, 0], 6), 'a black bar below')
  assert.not.ok(near(mean(frames, 0, 0, 100, 360, 260), [0, 0, 0], 20), 'the picture between them')

  const d = await fetched(gif.url, 'd.gif')
  assert.equal([d.probe.streams[0]!.codec, gif.width, gif.height, gif.fps, gif.content_type], ['gif', 512, 288, 12, 'image/gif'])
  const e = await fetched(png.url, 'e.png')
  assert.equal([e.probe.streams[0]!.codec, png.width, png.height], ['png', 405, 720], 'the largest 9:16 box of the source')

  const [hook] = await ctx.rx.waitFor(1)
  assert.is(hook!.json.event, 'source.ready')
  assert.equal(hook!.json.data, source, 'source.ready comes after the renditions and carries them')
  const listed = await ctx.svc.call('GET', '/v1/sources?type=video')
  assert.equal(listed.body.sources.find((s: { id: string }) => s.id === source.id).renditions, source.renditions)
})

test('fit on an image: crop, cover, contain (transparent bars in png) and none, read from the pixels', async () => {
  const size = { width: 200, height: 200 }
  const source = await imported('bands.png', [
    { format: 'png', size },
    { format: 'png', size, fit: 'cover' },
    { format: 'png', size, fit: 'contain' },
    { format: 'jpg', size: { width: 300, height: 300 }, fit: 'none' },
    { size: { width: 100 } },
  ])
  assert.is(source.status, 'ready', source.error)
  const [crop, cover, contain, none, narrow] = source.renditions
  const rgba = async (r: { url: string; id: string; width: number; height: number }) =>
    decodeFrames((await fetched(r.url, `${r.id}.img`)).path, r.width, r.height)
  const red = [255, 0, 0]
  const blue = [0, 0, 255]
  const lime = [0, 255, 0]
  const f1 = await rgba(crop)
  assert.ok(near(mean(f1, 0, 0, 0, 200, 200), red), 'crop: the middle of the scaled picture, all red')
  const f2 = await rgba(cover)
  assert.ok(near(mean(f2, 0, 5, 0, 45, 200), blue) && near(mean(f2, 0, 60, 0, 140, 200), red) && near(mean(f2, 0, 155, 0, 195, 200), lime), 'cover: stretched')
  const f3 = await rgba(contain)
  const alpha = f3.frame(0)[(10 * 200 + 100) * 4 + 3]
  assert.is(alpha, 0, 'contain: the bar above is transparent')
  assert.ok(near(mean(f3, 0, 5, 60, 45, 140), blue) && near(mean(f3, 0, 155, 60, 195, 140), lime), 'contain: the whole picture, 200×100')
  const f4 = await rgba(none)
  assert.ok(near(mean(f4, 0, 0, 0, 300, 45), [0, 0, 0]), 'none: black above (jpg has no alpha)')
  assert.ok(near(mean(f4, 0, 5, 60, 45, 240), blue, 20) && near(mean(f4, 0, 60, 60, 240, 240), red, 20) && near(mean(f4, 0, 255, 60, 295, 240), lime, 20))
  assert.equal([narrow.content_type, narrow.width, narrow.height], ['image/png', 100, 50], 'one side given: the other keeps the shape; png like its source')
})

test('renditions an audio source or an image cannot make fail on their own; the source is ready', async () => {
  const audio = await imported('tone.wav', [{ format: 'mp4', resolution: 'mobile' }, { format: 'jpg' }])
  assert.is(audio.status, 'ready', audio.error)
  for (const r of audio.renditions) {
    assert.is(r.status, 'failed')
    assert.is(r.error, 'renditions are made from video and image sources; this source is audio')
    assert.is(r.url, null)
  }
  const image = await imported('bands.png', [{ format: 'mp4' }, { format: 'jpg', filename: 'bands' }, { format: 'png', filename: 'bands' }])
  assert.equal(
    image.renditions.map((r: { status: string }) => r.status),
    ['failed', 'ready', 'failed'],
  )
  assert.is(image.renditions[0].error, 'mp4 is a video format; an image source makes jpg, png or webp renditions')
  assert.match(image.renditions[2].error, /the file name bands\.png is the source's own/)
})

test('bad renditions are a 400 naming the path', async () => {
  const bad = async (renditions: unknown, path: string, message?: RegExp) => {
    const r = await ctx.svc.call('POST', '/v1/sources', { body: { url: `${ctx.host.url}/wide.mp4`, renditions } })
    assert.is(r.status, 400, JSON.stringify(r.body))
    const issue = r.body.error.issues.find((i: { path: string }) => i.path === path)
    assert.ok(issue, `${path} in ${JSON.stringify(r.body.error.issues)}`)
    if (message) assert.match(issue.message, message)
  }
  await bad([{ format: 'mp4', fps: 26 }], 'renditions[0].fps', /must be one of 12, 15/)
  await bad([{}, { format: 'avi' }], 'renditions[1].format', /must be one of mp4, webm/)
  await bad([{ size: { width: 5000, height: 100 } }], 'renditions[0].size.width', /between 1 and 4096/)
  await bad([{ size: {} }], 'renditions[0].size', /needs width, height or both/)
  await bad([{ size: { width: 100, height: 100 }, resolution: 'hd' }], 'renditions[0].size', /not both/)
  await bad([{ resolution: 'huge' }], 'renditions[0].resolution')
  await bad([{ fit: 'fill' }], 'renditions[0].fit', /crop, cover, contain, none/)
  await bad([{ quality: 0 }], 'renditions[0].quality')
  await bad([{ filename: '../escape' }], 'renditions[0].filename')
  await bad(
    [
      { filename: 'a', format: 'jpg' },
      { filename: 'a', format: 'jpg' },
    ],
    'renditions[1].filename',
    /earlier rendition/,
  )
  await bad([{ speed: { speed: 2 } }], 'renditions[0].speed', /not supported/)
  await bad([{ width: 10 }], 'renditions[0].width', /not a known field/)
  await bad(
    Array.from({ length: 11 }, () => ({})),
    'renditions',
    /at most 10/,
  )
  await bad({ format: 'mp4' }, 'renditions')
})

test('DELETE removes the rendition files with the source', async () => {
  const source = await imported('bands.png', [
    { format: 'jpg', resolution: 'preview' },
    { format: 'webp', size: { width: 64, height: 32 } },
  ])
  assert.equal(
    source.renditions.map((r: { status: string; content_type: string }) => [r.status, r.content_type]),
    [
      ['ready', 'image/jpeg'],
      ['ready', 'image/webp'],
    ],
  )
  for (const r of source.renditions) assert.is((await ctx.svc.app.request(new URL(r.url).pathname)).status, 200)
  assert.is((await ctx.svc.call('DELETE', `/v1/sources/${source.id}`)).status, 200)
  for (const r of source.renditions) assert.is((await ctx.svc.app.request(new URL(r.url).pathname)).status, 404, 'the rendition file is gone')
  assert.is((await ctx.svc.app.request(new URL(source.url).pathname)).status, 404)
})

test.run()
