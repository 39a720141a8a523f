import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createRenderer, type RenderError } from '../../index.js'
import { probe } from '../../kit.js'
import { lavfi, solidPng, tempDir } from '../helpers/media.js'
import { decodeFrames, near, pixel } from '../helpers/frames.js'
import type { Edit } from '../../index.js'

const dir = tempDir()
const renderer = createRenderer({ cacheDir: join(dir, 'cache') })
let tone = '',
  red = ''
const edit = (output: object, withSound = true): Edit =>
  ({
    timeline: {
      background: '#000000',
      soundtrack: withSound ? tone : undefined,
      tracks: [
        { clips: [{ asset: { type: 'image', src: red }, start: 1, length: 1, fit: 'cover' }] },
        { clips: [{ asset: { type: 'title', text: 'fmt' }, start: 0, length: 2 }] },
      ],
    },
    output: { size: { width: 320, height: 180 }, fps: 25, ...output },
  }) as Edit
const render = (output: object, ext: string, withSound = true) =>
  renderer.render(edit(output, withSound), { out: join(dir, `f-${Math.random().toString(36).slice(2)}.${ext}`) })

const video = suite('video formats')
video.before(async () => {
  tone = await lavfi('sine=frequency=440:sample_rate=48000:duration=5', join(dir, 'tone.wav'))
  red = await solidPng(join(dir, 'red.png'), 64, 36, '#ff0000')
})
const ROWS: [string, object, string, string | null][] = [
  ['mp4', {}, 'h264', 'aac'],
  ['webm', {}, 'vp9', 'opus'],
  ['mov', {}, 'h264', 'aac'],
  ['mov', { quality: 'high' }, 'prores', 'pcm_s16le'],
  ['gif', {}, 'gif', null],
]
for (const [format, extra, vcodec, acodec] of ROWS) {
  video(`${format} ${JSON.stringify(extra)}: ${vcodec}${acodec ? ` + ${acodec}` : ', no sound'}, 320x180, 25 fps, 2 s`, async () => {
    const r = await render({ format, ...extra }, format)
    const p = await probe(r.path, { countFrames: true })
    const v = p.streams.find((s) => s.type === 'video')!
    assert.is(v.codec, vcodec)
    assert.equal([v.width, v.height], [320, 180])
    if (format !== 'gif') assert.ok(Math.abs(v.fps! - 25) < 0.01, `fps ${v.fps}`)
    assert.is(v.frames, 50)
    assert.ok(Math.abs((p.duration ?? 0) - 2) < 0.1, `duration ${p.duration}`)
    const a = p.streams.find((s) => s.type === 'audio')
    assert.is(a?.codec ?? null, acodec)
    assert.is(r.hasAudio, acodec !== null)
  })
}
video('gif loops forever by default and plays once with repeat: false', async () => {
  const loops = readFileSync((await render({ format: 'gif' }, 'gif')).path)
  const at = loops.indexOf('NETSCAPE2.0')
  assert.ok(at > 0, 'looping extension present')
  assert.is(loops.readUInt16LE(at + 13), 0, 'loop count 0 = forever')
  const once = readFileSync((await render({ format: 'gif', repeat: false }, 'gif')).path)
  assert.is(once.indexOf('NETSCAPE2.0'), -1, 'no looping extension')
})
video('output.mute and a silent timeline give no audio stream', async () => {
  const muted = await probe((await render({ format: 'mp4', mute: true }, 'mp4')).path)
  assert.is(
    muted.streams.some((s) => s.type === 'audio'),
    false,
  )
  const silent = await probe((await render({ format: 'webm' }, 'webm', false)).path)
  assert.is(
    silent.streams.some((s) => s.type === 'audio'),
    false,
  )
})
video.run()

const extras = suite('range, scaleTo, poster, thumbnail')
extras('a range starting past the end of the timeline is refused at output.range.start, not one frame', async () => {
  try {
    await render({ format: 'mp4', range: { start: 5, length: 1 } }, 'mp4')
    assert.unreachable()
  } catch (e) {
    assert.is((e as RenderError).code, 'E_TIMELINE_INVALID', String(e))
    assert.equal((e as RenderError).data?.issues, [{ path: 'output.range.start', message: 'is past the end of the 2.00 s timeline' }])
  }
})
extras('range renders only [start, start+length)', async () => {
  const r = await render({ format: 'mp4', range: { start: 0.5, length: 1 } }, 'mp4')
  assert.is(r.frames, 25)
  const frames = await decodeFrames(r.path, 320, 180)
  assert.ok(near(pixel(frames, 5, 160, 150), [0, 0, 0]), 'before the image (t = 0.7)')
  assert.ok(near(pixel(frames, 20, 160, 150), [255, 0, 0]), 'the image (t = 1.3)')
  const p = await probe(r.path)
  assert.ok(Math.abs((p.streams.find((s) => s.type === 'audio')!.duration ?? 0) - 1) < 0.1, 'sound cut to the range too')
})
extras('scaleTo renders the edit at its resolution and scales the file', async () => {
  const r = await renderer.render({ ...edit({}), output: { format: 'mp4', resolution: 'hd', scaleTo: 'preview', fps: 25 } }, { out: join(dir, 'scaled.mp4') })
  const v = (await probe(r.path)).streams.find((s) => s.type === 'video')!
  assert.equal([v.width, v.height], [512, 288])
  assert.equal([r.width, r.height], [512, 288])
})
extras("scaleTo with a custom size scales the file to the resolution, keeping the size's aspect", async () => {
  const r = await render({ format: 'mp4', size: { width: 640, height: 360 }, scaleTo: 'preview' }, 'mp4')
  const v = (await probe(r.path)).streams.find((s) => s.type === 'video')!
  assert.equal([v.width, v.height, r.width, r.height], [512, 288, 512, 288])
  // Laid out at 640×360 (the image covering it from 1 s), then scaled: red to the corners at 1.5 s.
  const frames = await decodeFrames(r.path, 512, 288)
  for (const [x, y] of [
    [4, 4],
    [507, 283],
  ] as const)
    assert.ok(near(pixel(frames, 37, x, y), [255, 0, 0]), `red at ${x}, ${y}`)
})
extras('poster (frame-sized) and thumbnail (scaled) are written beside the video', async () => {
  const r = await render({ format: 'mp4', poster: { capture: 1.5 }, thumbnail: { capture: 0.2, scale: 0.5 } }, 'mp4')
  assert.match(r.poster!, /-poster\.jpg$/)
  const poster = await probe(r.poster!)
  assert.equal([poster.streams[0]!.width, poster.streams[0]!.height], [320, 180])
  const thumb = await probe(r.thumbnail!)
  assert.equal([thumb.streams[0]!.width, thumb.streams[0]!.height], [160, 90])
  const posterPixels = await decodeFrames(r.poster!, 320, 180)
  assert.ok(near(pixel(posterPixels, 0, 160, 150), [255, 0, 0], 20), 'poster shows t = 1.5')
})
extras.run()

const stills = suite('stills and audio-only')
for (const [format, codec] of [
  ['jpg', 'mjpeg'],
  ['png', 'png'],
  ['bmp', 'bmp'],
] as const) {
  stills(`${format}: one ${codec} frame at range.start`, async () => {
    const before = await render({ format }, format)
    const after = await render({ format, range: { start: 1.5 } }, format)
    const p = await probe(after.path, { countFrames: true })
    assert.is(p.streams.length, 1)
    assert.is(p.streams[0]!.codec, codec)
    assert.is(p.streams[0]!.frames, 1)
    assert.ok(near(pixel(await decodeFrames(before.path, 320, 180), 0, 160, 150), [0, 0, 0], 20), 'frame 0: no image yet')
    assert.ok(near(pixel(await decodeFrames(after.path, 320, 180), 0, 160, 150), [255, 0, 0], 20), 'frame at 1.5 s: the image')
  })
}
stills("mp3: the sound only, for the timeline's length", async () => {
  const r = await render({ format: 'mp3' }, 'mp3')
  const p = await probe(r.path)
  assert.equal(
    p.streams.map((s) => `${s.type}:${s.codec}`),
    ['audio:mp3'],
  )
  assert.ok(Math.abs((p.duration ?? 0) - 2) < 0.1, `duration ${p.duration}`)
})
stills('mp3 of a silent timeline is a clear error', async () => {
  try {
    await render({ format: 'mp3' }, 'mp3', false)
    assert.unreachable()
  } catch (e) {
    assert.is((e as RenderError).code, 'E_OUTPUT_FAILED')
    assert.match((e as Error).message, /needs sound/)
  }
})
stills.run()
