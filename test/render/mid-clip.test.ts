// A render that starts inside a video clip — a frame preview, a piece of a split render, a scrubbed preview —
// must show the source frames the whole render shows there, also where the source's rate is not the output's
// (a 30 fps phone clip in a 25 fps edit) and the clip is trimmed or sped up. Real ffmpeg; sources whose frames
// carry their index.
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createRenderer } from '../../index.js'
import { frameEdit, frameOrigin, RawVideoDecoder } from '../../core/index.js'
import { decodeFrames } from '../helpers/frames.js'
import { indexedVideo, readIndex, tempDir } from '../helpers/media.js'
import { edit } from '../helpers/render.js'

const dir = tempDir()
const W = 160,
  H = 40
const sources: Record<number, string> = {}
const test = suite('frames of a render that starts mid-clip')
test.before(async () => {
  sources[30] = await indexedVideo(join(dir, 'idx30.mp4'), { fps: 30, seconds: 6 })
  sources[24] = await indexedVideo(join(dir, 'idx24.mp4'), { fps: 24, seconds: 6 })
})

const index = (data: Uint8Array | null) => (data ? readIndex({ width: W, frame: () => data }, 0, 0, 20, 20) : null)

/** The source frames a decoder started at `trim` shows, one per output frame. */
async function streamed(o: { src: string; trim: number; speed: number; fps: number }, count: number) {
  const d = new RawVideoDecoder({ path: o.src, trim: o.trim, speed: o.speed, fps: o.fps, width: W, height: H, label: 'clip' })
  const out: (number | null)[] = []
  for (let k = 0; k < count; k++) out.push(index(await d.frame(k)))
  d.close()
  return out
}

for (const [rate, fps, trim, speed] of [
  [30, 25, 0.37, 1],
  [30, 25, 0, 1.5],
  [24, 30, 0.4, 1],
  [30, 30, 0.37, 1.5],
] as const) {
  test(`decoder: a ${rate} fps source at ${fps} fps, trim ${trim}, speed ${speed} — started at frame k, it shows frames k, k+1, k+2 of the whole`, async () => {
    const o = { src: sources[rate]!, trim, speed, fps }
    const whole = await streamed(o, 100)
    const origin = await frameOrigin(o.src, trim)
    assert.ok(origin, 'the first frame at trim is known')
    for (const k of [1, 3, 7, 13, 26, 37, 61]) {
      const d = new RawVideoDecoder({ path: o.src, trim, speed, fps, width: W, height: H, label: 'clip', skip: k, origin })
      const got = [index(await d.frame(0)), index(await d.frame(1)), index(await d.frame(2))]
      d.close()
      assert.equal(got, whole.slice(k, k + 3), `from frame ${k}`)
    }
  })
}

test('renderer: a still at t shows the source frame the whole video shows at t (30 fps clip, 25 fps edit, trimmed)', async () => {
  const e = edit([{ asset: { type: 'video', src: sources[30]!, trim: 0.37 }, start: 0.5, length: 4 }], { size: { width: W, height: H }, fps: 25 })
  const renderer = createRenderer({ cacheDir: join(dir, 'cache') })
  const whole = await renderer.render(e, { out: join(dir, 'whole.mp4') })
  const frames = await decodeFrames(whole.path, W, H)
  for (const t of [0.54, 0.62, 0.9, 1.3, 2.02, 3.16]) {
    const still = await renderer.render(frameEdit(e, t), { out: join(dir, `still-${t}.png`) })
    const png = await decodeFrames(still.path, W, H)
    const k = Math.round(t * 25)
    assert.is(readIndex(png, 0, 0, 20, 20), readIndex(frames, k, 0, 20, 20), `t ${t} (frame ${k})`)
  }
})

test.run()
