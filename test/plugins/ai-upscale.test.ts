import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { ffmpegArgs, probe, RenderError, runFfmpeg } from '../../core/index.js'
import { ffmpegUpscaleProvider } from '../../plugins/providers/ai/ffmpeg-upscale.js'
import { bt2020Chart, chartVideo, HDR_REFERENCE, PATCHES, patch, playerRgb } from '../helpers/colour.js'
import { decodeFrames, mean, near } from '../helpers/frames.js'
import { drawnPng, lavfi, tempDir } from '../helpers/media.js'

// The same filter graph makes 4K as makes these small sizes; the small ones keep the suite cheap, and one
// 4K image proves the exact size at the real target.
const upscale = ffmpegUpscaleProvider()
const dir = tempDir('reelforge-upscale-')
const ctx = { signal: new AbortController().signal, workDir: dir }
const req = (path: string, width: number, height: number) => ({ path, width, height, model: 'lanczos' })

/** A 64×48 PNG: red left half, blue right half — so placement and padding can be read back. */
const halves = (path: string, w = 64, h = 48) =>
  drawnPng(path, w, h, (g) => {
    g.fillStyle = '#ff0000'
    g.fillRect(0, 0, w / 2, h)
    g.fillStyle = '#0000ff'
    g.fillRect(w / 2, 0, w / 2, h)
  })

test('a 64×48 PNG becomes exactly 640×480, still a PNG, its halves where they were', async () => {
  const out = await upscale.run(req(await halves(join(dir, 'a.png')), 640, 480), ctx)
  assert.is(out.mime, 'image/png')
  assert.match(out.path, /\.png$/)
  const p = await probe(out.path)
  assert.equal([p.streams[0]!.codec, p.streams[0]!.width, p.streams[0]!.height], ['png', 640, 480])
  const f = await decodeFrames(out.path, 640, 480)
  assert.ok(near(mean(f, 0, 40, 200, 280, 280), [255, 0, 0], 6), 'left half red')
  assert.ok(near(mean(f, 0, 360, 200, 600, 280), [0, 0, 255], 6), 'right half blue')
})

test('another aspect is fitted whole and padded (black bars, transparent in a PNG), never cropped', async () => {
  const out = await upscale.run(req(await halves(join(dir, 'b.png')), 640, 360), ctx)
  const f = await decodeFrames(out.path, 640, 360)
  // 64×48 fits as 480×360: 80 px bars left and right, both colours whole.
  assert.equal([...f.frame(0).subarray((180 * 640 + 10) * 4, (180 * 640 + 10) * 4 + 4)], [0, 0, 0, 0])
  assert.ok(near(mean(f, 0, 100, 100, 300, 260), [255, 0, 0], 6))
  assert.ok(near(mean(f, 0, 340, 100, 540, 260), [0, 0, 255], 6))
})

test('a JPEG stays a JPEG', async () => {
  const src = join(dir, 'c.jpg')
  await runFfmpeg(ffmpegArgs`-v error -y -i ${await halves(join(dir, 'c.png'))} -q:v 2 ${src}`)
  const out = await upscale.run(req(src, 640, 480), ctx)
  assert.is(out.mime, 'image/jpeg')
  const p = await probe(out.path)
  assert.equal([p.streams[0]!.codec, p.streams[0]!.width, p.streams[0]!.height], ['mjpeg', 640, 480])
})

test('a 320×180 video with MP3 sound becomes a 1280×720 H.264 mp4, same length, sound re-encoded to AAC', async () => {
  const src = join(dir, 'v.mkv')
  await runFfmpeg(
    ffmpegArgs`-v error -y -f lavfi -i testsrc2=s=320x180:r=25:d=2 -f lavfi -i sine=f=440:d=2 -c:v libx264 -preset ultrafast -c:a libmp3lame -shortest ${src}`,
  )
  const out = await upscale.run(req(src, 1280, 720), ctx)
  assert.is(out.mime, 'video/mp4')
  const p = await probe(out.path, { countFrames: true })
  const v = p.streams.find((s) => s.type === 'video')!
  const a = p.streams.find((s) => s.type === 'audio')!
  assert.equal([v.codec, v.width, v.height, v.pixFmt, v.frames], ['h264', 1280, 720, 'yuv420p', 50])
  assert.is(a.codec, 'aac')
  assert.ok(Math.abs(p.duration! - 2) < 0.1, `duration ${p.duration}`)
})

test('AAC sound is copied, not re-encoded; a silent video stays silent', async () => {
  const withAac = await lavfi('testsrc2=s=160x90:r=10:d=1', join(dir, 'aac.mp4'), [
    '-f',
    'lavfi',
    '-i',
    'sine=d=1',
    '-c:v',
    'libx264',
    '-c:a',
    'aac',
    '-b:a',
    '64k',
  ])
  const out = await upscale.run(req(withAac, 320, 180), ctx)
  const before = (await probe(withAac)).streams.find((s) => s.type === 'audio')!
  const after = (await probe(out.path)).streams.find((s) => s.type === 'audio')!
  assert.equal([after.codec, after.sampleRate, after.channels], [before.codec, before.sampleRate, before.channels])
  const silent = await lavfi('testsrc2=s=160x90:r=10:d=1', join(dir, 'silent.mp4'), ['-c:v', 'libx264'])
  const s = await probe((await upscale.run(req(silent, 320, 180), ctx)).path)
  assert.equal(
    s.streams.map((x) => x.type),
    ['video'],
  )
})

test('bad input and odd video sizes are clear errors', async () => {
  const junk = join(dir, 'junk.bin')
  await import('node:fs/promises').then((fs) => fs.writeFile(junk, 'not media'))
  for (const [r, pattern] of [
    [req(junk, 640, 480), /neither an image nor a video/],
    [req(join(dir, 'a.png'), 0, 480), /not a size/],
    [req(join(dir, 'v.mkv'), 641, 480), /even width and height/],
  ] as const) {
    const e = await upscale.run(r, ctx).catch((x) => x)
    assert.instance(e, RenderError)
    assert.is(e.code, 'E_PROVIDER_FAILED')
    assert.match(e.message, pattern)
  }
})

// Colour as every video reelforge writes (docs/timeline.md, colour): a BT.601 chart at half size comes out BT.709 TV range,
// tagged, every patch within ±3 as a player decodes it; an HLG chart is tone-mapped as ffmpeg's reference maps it.
const ff = (args: string[]) => execFileSync('ffmpeg', ['-v', 'error', '-y', ...args], { maxBuffer: 64 * 1024 ** 2 })
const within = (a: number[], b: number[], tol: number) => a.every((v, c) => Math.abs(v - b[c]!) <= tol)
const tags = async (path: string) => {
  const v = (await probe(path)).streams.find((s) => s.type === 'video')!
  return [v.colorSpace, v.colorPrimaries, v.colorTransfer, v.colorRange]
}
test('a video comes out BT.709 TV range and tagged so: a BT.601 chart within ±3 a patch', async () => {
  const src = chartVideo(join(dir, 'chart-601.mp4'), 'bt601', { size: '640:360' })
  const out = await upscale.run(req(src, 1280, 720), ctx)
  assert.equal(await tags(out.path), ['bt709', 'bt709', 'bt709', 'tv'])
  const got = await playerRgb(out.path, 0)
  for (const [i, [, want]] of PATCHES.entries()) assert.ok(within(patch(got, i), want, 3), `patch ${i}: ${patch(got, i)} for ${want}`)
})
test('an HLG video is tone-mapped to SDR as the reference pipeline maps it (±4 a patch)', async () => {
  const src = bt2020Chart(join(dir, 'hlg.mp4'), 'arib-std-b67')
  const out = await upscale.run(req(src, 1280, 720), ctx)
  assert.equal(await tags(out.path), ['bt709', 'bt709', 'bt709', 'tv'])
  const reference = ff(['-i', src, '-frames:v', '1', '-vf', `${HDR_REFERENCE},scale=flags=bicubic,format=rgb24`, '-f', 'rawvideo', '-'])
  const got = await playerRgb(out.path, 0)
  for (const i of PATCHES.keys()) assert.ok(within(patch(got, i), patch(reference, i), 4), `patch ${i}: ${patch(got, i)} for ${patch(reference, i)}`)
})

test('4K: a small image becomes exactly 3840×2160', async () => {
  const out = await upscale.run(req(await halves(join(dir, 'k.png'), 96, 54), 3840, 2160), ctx)
  const p = await probe(out.path)
  assert.equal([p.streams[0]!.width, p.streams[0]!.height], [3840, 2160])
})

test.run()
