import { join } from 'node:path'
import { writeFileSync } from 'node:fs'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createRenderer, type RenderError } from '../../index.js'
import { decodeThreads } from '../../plugins/lib/video/prepare-video.js'
import type { ProbedStream } from '../../core/index.js'
import { decodeFrames, near, pixel } from '../helpers/frames.js'
import { indexedVideo, readIndex, solidPng, tempDir } from '../helpers/media.js'
import type { Edit } from '../../index.js'

const dir = tempDir()
const renderer = createRenderer({ cacheDir: join(dir, 'cache') })
let src25 = '',
  src30 = ''
let n = 0

/** Renders video clips (fit none, 160x40 source centred in 320x180) and returns the source index per output frame. */
async function indices(clips: object[], output: object = {}, read = (f: any, i: number) => readIndex(f, i, 80, 70, 20)) {
  const out = join(dir, `v${n++}.mp4`)
  const r = await renderer.render(
    { timeline: { background: '#000000', tracks: [{ clips }] }, output: { size: { width: 320, height: 180 }, fps: 25, ...output } } as Edit,
    { out },
  )
  const frames = await decodeFrames(out, r.width, r.height)
  return { frames, at: (i: number) => read(frames, i) }
}
const clip = (extra: object) => ({ asset: { type: 'video', src: src25, ...extra }, start: 0, length: 2, fit: 'none', ...('length' in extra ? {} : {}) })

const timing = suite('frame-accurate trim and speed')
timing.before(async () => {
  src25 = await indexedVideo(join(dir, 'idx25.mp4'), { fps: 25, seconds: 12 })
  src30 = await indexedVideo(join(dir, 'idx30.mp4'), { fps: 30, seconds: 12 })
})
timing('frame k shows source frame trim·fps + k at equal rates', async () => {
  const { at, frames } = await indices([clip({ trim: 2 })])
  assert.is(frames.count, 50)
  for (const k of [0, 1, 2, 10, 25, 49]) assert.is(at(k), 50 + k, `output frame ${k}`)
})
timing('speed 2 skips every other source frame; speed 0.5 shows each twice', async () => {
  const fast = await indices([clip({ trim: 1, speed: 2 })])
  for (const k of [0, 5, 20, 40]) assert.is(fast.at(k), 25 + 2 * k, `speed 2, frame ${k}`)
  const slow = await indices([clip({ trim: 1, speed: 0.5 })])
  for (const k of [0, 6, 20, 40]) assert.ok(Math.abs(slow.at(k) - (25 + k / 2)) <= 0.5, `speed 0.5, frame ${k}: ${slow.at(k)}`)
})
timing('speed 0 freezes the frame at trim for the whole clip (Studio\'s "0x")', async () => {
  const { at, frames } = await indices([clip({ trim: 2, speed: 0 })])
  assert.is(frames.count, 50)
  for (const k of [0, 1, 25, 49]) assert.is(at(k), 50, `output frame ${k}`)
})
timing('a 30 fps source in a 25 fps output lands within half a frame', async () => {
  const { at } = await indices([{ ...clip({ trim: 3 }), asset: { type: 'video', src: src30, trim: 3 } }])
  for (const k of [0, 7, 24, 49]) {
    const want = (3 + k / 25) * 30
    assert.ok(Math.abs(at(k) - want) <= 0.5 * (30 / 25) + 1e-9, `frame ${k}: source ${at(k)}, expected ≈ ${want}`)
  }
})
timing('a clip that starts mid-timeline and a render range that starts mid-clip keep the mapping', async () => {
  const later = await indices([{ ...clip({ trim: 1 }), start: 1, length: 2 }])
  assert.is(later.at(25 + 10), 25 + 10)
  const ranged = await indices([{ ...clip({ trim: 1 }), length: 8 }], { range: { start: 6, length: 1 } })
  assert.is(ranged.frames.count, 25)
  assert.is(ranged.at(0), 25 + 150, 'first frame of the range')
  assert.is(ranged.at(24), 25 + 174)
})
timing.run()

const lifecycle = suite('sources')
lifecycle('a source that ends before its clip leaves nothing (the background shows)', async () => {
  const { frames, at } = await indices([clip({ trim: 11 }) /* 1 s left, clip 2 s */])
  assert.is(at(10), (275 + 10) % 256, 'still playing (8-bit index)')
  assert.ok(near(pixel(frames, 40, 160, 90), [0, 0, 0]), 'background after the source ended')
})
lifecycle('the same source used twice, overlapping, decodes independently', async () => {
  const tracks = [
    { clips: [{ asset: { type: 'video', src: src25, trim: 1 }, start: 0, length: 1, fit: 'none', position: 'top' }] },
    { clips: [{ asset: { type: 'video', src: src25, trim: 5 }, start: 0, length: 1, fit: 'none', position: 'bottom' }] },
  ]
  const out = join(dir, 'twice.mp4')
  const r = await renderer.render({ timeline: { tracks }, output: { size: { width: 320, height: 180 }, fps: 25 } } as Edit, { out })
  const frames = await decodeFrames(out, r.width, r.height)
  for (const k of [0, 12, 24]) {
    assert.is(readIndex(frames, k, 80, 20, 20), 25 + k, 'top clip')
    assert.is(readIndex(frames, k, 80, 160, 20), 125 + k, 'bottom clip')
  }
})
lifecycle('no drift over a 10-minute timeline', async () => {
  const long = await indexedVideo(join(dir, 'long.mp4'), { fps: 25, seconds: 601, bits: 15, barWidth: 4 })
  const out = join(dir, 'long-out.mp4')
  const r = await renderer.render(
    {
      timeline: { tracks: [{ clips: [{ asset: { type: 'video', src: long }, start: 0, length: 600, fit: 'none', position: 'topLeft' }] }] },
      output: { size: { width: 64, height: 16 }, fps: 25 },
    },
    { out },
  )
  assert.is(r.frames, 15000)
  const frames = await decodeFrames(out, 64, 16)
  for (const k of [0, 7499, 14990, 14999]) assert.is(readIndex(frames, k, 0, 4, 4, 15), k, `frame ${k}`)
})
const fails = async (src: string, pattern: RegExp) => {
  try {
    await renderer.render(
      {
        timeline: {
          tracks: [
            { clips: [{ asset: { type: 'title', text: 'x' }, start: 0, length: 1 }] },
            { clips: [{ asset: { type: 'video', src }, start: 0, length: 1 }] },
          ],
        },
      },
      { out: join(dir, 'bad.mp4') },
    )
    assert.unreachable()
  } catch (e) {
    assert.is((e as RenderError).code, 'E_ASSET_UNREADABLE')
    assert.match((e as Error).message, pattern)
  }
}
lifecycle('an unreadable or non-video src fails naming the clip path', async () => {
  const text = join(dir, 'notes.mp4')
  writeFileSync(text, 'these are not frames')
  await fails(text, /timeline\.tracks\[1\]\.clips\[0\]\.asset\.src: \S+notes\.mp4 is not a readable media file \(moov atom not found \| Invalid data/)
  const png = await solidPng(join(dir, 'still.mp4'), 16, 16, '#ff0000')
  await fails(png, /timeline\.tracks\[1\]\.clips\[0\]\.asset\.src: .* is not a video \(a png image\)/)
})
lifecycle.run()

const threads = suite('decoder threads')
threads("one thread for sources up to 1080p at up to ~1.5 source frames per output frame; ffmpeg's default otherwise", () => {
  const stream = (codec: string, width: number, height: number, fps: number): ProbedStream => ({ index: 0, type: 'video', codec, width, height, fps })
  assert.equal(decodeThreads(stream('h264', 1920, 1080, 30), 1, 30), ['-threads', '1'])
  assert.equal(decodeThreads(stream('h264', 1280, 720, 60), 1, 30), ['-threads', '1'], '720p60 into 30 fps: 2 source frames of a smaller picture')
  assert.equal(decodeThreads(stream('h264', 1920, 1080, 60), 1, 30), [], '1080p60 into 30 fps decodes every source frame')
  assert.equal(decodeThreads(stream('h264', 1920, 1080, 30), 2, 30), [], 'speed 2 decodes two source frames per output frame')
  assert.equal(decodeThreads(stream('h264', 3840, 2160, 30), 1, 30), [], '4K')
  assert.equal(decodeThreads(stream('hevc', 1920, 1080, 30), 1, 30), [], 'a heavier codec')
  // A render sharing the machine (a segment piece) caps what ffmpeg's default would take, never the light case.
  assert.equal(decodeThreads(stream('hevc', 1920, 1080, 30), 1, 30, 4), ['-threads', '4'], "a heavier codec: the render's share")
  assert.equal(decodeThreads(stream('h264', 3840, 2160, 30), 1, 30, 2), ['-threads', '2'], "4K: the render's share")
  assert.equal(decodeThreads(stream('h264', 1920, 1080, 30), 1, 30, 8), ['-threads', '1'], 'one thread stays one')
})
threads('a single-threaded decoder still delivers every frame, in order (the indexed source)', async () => {
  const { at, frames } = await indices([clip({ trim: 1 })])
  assert.is(frames.count, 50)
  for (const i of [0, 1, 24, 49]) assert.is(at(i), 25 + i)
})
threads.run()
