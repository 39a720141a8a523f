import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createRenderer, renderSegmented, type PieceRenderer } from '../../index.js'
import { probe } from '../../kit.js'
import { autoSegments } from '../../service/isolation/segment-join.js'
import { argOf, childCommands } from '../helpers/children.js'
import { decodeFrames, frameDiff, type Frames } from '../helpers/frames.js'
import { decodeAudio, lavfi, rmsDb, tempDir } from '../helpers/media.js'
import { edit } from '../helpers/render.js'

const dir = tempDir()
const test = suite('segment-parallel rendering')

/** Mean absolute difference between frame i of two decodes (0–255). */
function diff(a: Frames, b: Frames, i: number): number {
  const x = a.frame(i),
    y = b.frame(i)
  let s = 0
  for (let k = 0; k < x.length; k += 4) s += Math.abs(x[k]! - y[k]!) + Math.abs(x[k + 1]! - y[k + 1]!) + Math.abs(x[k + 2]! - y[k + 2]!)
  return s / (x.length / 4) / 3
}

test('2 and 3 segments in parallel processes give the same frames, duration and sound as one render', async () => {
  const video = await lavfi('testsrc2=size=320x180:rate=25:duration=6', join(dir, 'v.mp4'), [
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:duration=6',
    '-shortest',
    '-c:a',
    'aac',
  ])
  // Motion everywhere (a moving source, a zoom, a crossfade across the 2-segment boundary), and sound.
  const e = edit(
    [
      { asset: { type: 'video', src: video, trim: 0.5 }, start: 0, length: 2.5, transition: { out: 'fade' } },
      { asset: { type: 'title', text: 'Two', style: 'minimal' }, start: 1.5, length: 2.7, effect: 'zoomIn', transition: { in: 'fade' } },
    ],
    { fps: 25 },
  )
  const cacheDir = join(dir, 'cache')
  const renderer = createRenderer({ cacheDir })
  const single = await renderer.render(e, { out: join(dir, 'single.mp4') })
  const two = await renderSegmented(renderer, e, { out: join(dir, 'two.mp4'), segments: 2, cacheDir })
  const three = await renderSegmented(renderer, e, { out: join(dir, 'three.mp4'), segments: 3, cacheDir })
  for (const r of [two, three]) {
    const p = await probe(r.path, { countFrames: true })
    const v = p.streams.find((s) => s.type === 'video')!
    assert.is(v.frames, single.frames, `${r.path}: same frame count`)
    assert.is(r.frames, single.frames)
    assert.ok(Math.abs(v.frames! / v.fps! - single.duration) < 1e-6, 'same duration')
    assert.ok(
      p.streams.some((s) => s.type === 'audio'),
      'sound muxed in',
    )
  }
  const a = await decodeFrames(single.path, 320, 180)
  const b = await decodeFrames(two.path, 320, 180)
  const c = await decodeFrames(three.path, 320, 180)
  // The same pictures frame for frame (only x264's own choices differ), including both sides of every boundary.
  for (const i of [0, 34, 35, 52, 53, 54, 69, 70, 104]) {
    assert.ok(diff(a, b, i) < 4, `frame ${i}: 2 segments differ by ${diff(a, b, i).toFixed(2)}`)
    assert.ok(diff(a, c, i) < 4, `frame ${i}: 3 segments differ by ${diff(a, c, i).toFixed(2)}`)
  }
  assert.ok(frameDiff(b, 52, 54) > 0.5, 'and the picture moves across the boundary (the check could fail)')
  // The tone plays for the video clip (0–2.5 s) and is silent after it, in the joined file too.
  const sound = await decodeAudio(two.path)
  assert.ok(rmsDb(sound, 0.5, 2) > -30, 'tone while the clip plays')
  assert.ok(rmsDb(sound, 3, 4) < -50, 'silence after it')
})
test('webm and mov (H.264 and ProRes) are cut and joined too: same frames, duration and sound as one render', async () => {
  const video = await lavfi('testsrc2=size=320x180:rate=25:duration=4', join(dir, 'v4.mp4'), [
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:duration=4',
    '-shortest',
    '-c:a',
    'aac',
  ])
  const renderer = createRenderer({ cacheDir: join(dir, 'cache') })
  for (const [format, quality, codec, audioCodec] of [
    ['webm', 'medium', 'vp9', 'opus'],
    ['mov', 'medium', 'h264', 'aac'],
    ['mov', 'high', 'prores', 'pcm_s16le'],
  ] as const) {
    const e = edit([{ asset: { type: 'video', src: video }, start: 0, length: 3, effect: 'zoomIn' }], { fps: 25, format, quality })
    const single = await renderer.render(e, { out: join(dir, `one-${quality}.${format}`) })
    const two = await renderSegmented(renderer, e, { out: join(dir, `two-${quality}.${format}`), segments: 2, cacheDir: join(dir, 'cache') })
    assert.is(two.segments, 2, `${format} ${quality} was cut`)
    const p = await probe(two.path, { countFrames: true })
    const v = p.streams.find((s) => s.type === 'video')!
    assert.equal([v.codec, v.frames, p.streams.find((s) => s.type === 'audio')?.codec], [codec, single.frames, audioCodec], `${format} ${quality}`)
    assert.ok(Math.abs(v.frames! / v.fps! - single.duration) < 1e-6, 'same duration')
    const a = await decodeFrames(single.path, 320, 180)
    const b = await decodeFrames(two.path, 320, 180)
    for (const i of [0, 36, 37, 38, 74]) assert.ok(diff(a, b, i) < 4, `${format} ${quality} frame ${i}: differs by ${diff(a, b, i).toFixed(2)}`)
    assert.ok(frameDiff(b, 36, 38) > 0.5, 'the picture moves across the boundary')
  }
})
test("'auto' cuts by the cores it plans for (none below 8); gif and short edits render in one piece", async () => {
  const renderer = createRenderer({ cacheDir: join(dir, 'cache') })
  // A moving picture under the title (testsrc2's counter and sweep), so that a frame from the wrong time shows.
  const moving = await lavfi('testsrc2=size=320x180:rate=25:duration=6', join(dir, 'moving.mp4'))
  const e = edit(
    [
      { asset: { type: 'title', text: 'auto' }, start: 0, length: 6, effect: 'zoomIn' },
      { asset: { type: 'video', src: moving }, start: 0, length: 6 },
    ],
    { fps: 25 },
  )
  const big = await renderSegmented(renderer, e, { out: join(dir, 'auto16.mp4'), segments: 'auto', cores: 16 })
  const small = await renderSegmented(renderer, e, { out: join(dir, 'auto2.mp4'), segments: 'auto', cores: 2 })
  assert.equal([big.segments, small.segments], [3, 1], 'at least 2 s a piece on 16 cores; one piece on 2')
  assert.equal([autoSegments(4, 60), autoSegments(8, 60), autoSegments(16, 60), autoSegments(64, 600), autoSegments(16, 5)], [1, 4, 8, 16, 2])
  assert.equal([big.frames, small.frames], [150, 150])
  // The auto-cut file shows the one-piece file's pictures, on both sides of each of its two joins (49|50, 99|100).
  const one = await decodeFrames(small.path, 320, 180)
  const cut = await decodeFrames(big.path, 320, 180)
  for (const i of [0, 49, 50, 51, 99, 100, 101, 149]) assert.ok(diff(one, cut, i) < 4, `auto frame ${i}: differs by ${diff(one, cut, i).toFixed(2)}`)
  assert.ok(frameDiff(cut, 48, 51) > 0.5, 'the picture moves across the join (the check could fail)')
  const short = await renderSegmented(renderer, edit([{ asset: { type: 'title', text: 'x' }, start: 0, length: 0.8 }]), {
    out: join(dir, 'short.mp4'),
    segments: 4,
  })
  assert.equal([short.frames, short.segments], [20, 1])
  const gif = await renderSegmented(renderer, edit([{ asset: { type: 'title', text: 'x' }, start: 0, length: 2 }], { format: 'gif', fps: 12 }), {
    out: join(dir, 'x.gif'),
    segments: 2,
  })
  assert.equal([gif.frames, gif.segments], [24, 1])
})
const threadsOf = (cmd: string[]) => argOf(cmd, '-threads')

/** Runs with REELFORGE_HARDWARE=off: the CPU's encoder and decoders are the ones sized by threads. */
async function sharesAndThreads() {
  const renderer = createRenderer({ cacheDir: join(dir, 'cache') })
  const hevc = await lavfi('testsrc2=s=320x240:r=25:d=6', join(dir, 'hevc.mp4'), ['-c:v', 'libx265', '-x265-params', 'log-level=error'])
  const e = edit([{ asset: { type: 'video', src: hevc }, start: 0, length: 6 }], { fps: 25 })
  const shares: (number | undefined)[] = []
  const cpu: (boolean | undefined)[] = []
  // The pieces render here, in this process, so their ffmpeg children are visible as ours.
  const pieces: PieceRenderer = (piece, o) => (shares.push(o.cores), cpu.push(o.cpuEncoder), renderer.render(piece, { out: o.out, cores: o.cores }))
  const commands = await childCommands(renderSegmented(renderer, e, { out: join(dir, 'share.mp4'), segments: 'auto', cores: 16, pieces }))
  assert.equal(shares, [5, 5, 5], '3 pieces of 2 s on 16 cores: 5 cores each')
  assert.equal(cpu, [true, true, true], 'pieces encode on the CPU: they join by stream copy')
  const encoders = commands.filter((c) => c.includes('libx264'))
  const decoders = commands.filter((c) => c.includes('pipe:1') || c.some((a) => a.startsWith('unix:')))
  assert.is(encoders.length, 3, commands.map((c) => c.join(' ')).join('\n'))
  assert.equal(encoders.map(threadsOf), ['8', '8', '8'], "x264's 1.5 threads a core, of the piece's 5")
  assert.ok(decoders.length >= 3, 'one HEVC decoder per piece')
  assert.equal([...new Set(decoders.map(threadsOf))], ['5'], 'HEVC decoders: as many threads as the share')

  // A render that has the machine to itself: one x264 frame thread per core, not x264's own 1.5 (its decoders and
  // compositor share the cores; each extra frame thread only holds frames).
  const whole = await childCommands(renderer.render(e, { out: join(dir, 'whole.mp4') }))
  assert.equal(whole.filter((c) => c.includes('libx264')).map(threadsOf), [String(availableParallelism())])
}
test('each local piece gets its share of the cores; its encoder and decoders take that many threads, not every core', async () => {
  // (A GPU machine would otherwise pick NVENC/NVDEC, which take no thread count.)
  process.env.REELFORGE_HARDWARE = 'off'
  try {
    await sharesAndThreads()
  } finally {
    delete process.env.REELFORGE_HARDWARE
  }
})
test('a piece that fails stops the others and fails the render (pieces from any PieceRenderer)', async () => {
  const renderer = createRenderer({ cacheDir: join(dir, 'cache') })
  const aborted: (number | 'sound')[] = []
  // Piece 1 fails at once; the others wait until they are told to stop, as a remote worker would.
  const pieces: PieceRenderer = (_piece, o) =>
    new Promise((resolve, reject) => {
      if (o.index === 1) return reject(new Error('piece 1 broke'))
      o.signal?.addEventListener('abort', () => (aborted.push(o.index), reject(new Error('stopped'))), { once: true })
    })
  const e = edit([{ asset: { type: 'title', text: 'x' }, start: 0, length: 3 }], { fps: 25 })
  let failure: unknown
  await renderSegmented(renderer, e, { out: join(dir, 'broken.mp4'), segments: 3, pieces }).catch((err) => (failure = err))
  assert.match(String(failure), /piece 1 broke/)
  assert.equal(aborted.sort(), [0, 2], 'the other pieces were stopped')
})
test.run()
