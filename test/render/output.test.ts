import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { pgrep, running } from '../helpers/processes.js'
import { createRenderer, RenderError, type Edit } from '../../index.js'
import { builtinFonts, builtinPlugins, createCompositor, DEFAULT_FONT, probe } from '../../kit.js'
import { isFastStart } from '../helpers/frames.js'
import { lavfi, solidPng, tempDir } from '../helpers/media.js'

const dir = tempDir()
const renderer = createRenderer({ cacheDir: join(dir, 'cache') })
let png = ''
let n = 0
const title = (length: number): Edit => ({ timeline: { tracks: [{ clips: [{ asset: { type: 'title', text: 'x' }, start: 0, length }] }] } })
const render = (edit: object, out = join(dir, `o${n++}.mp4`)) => renderer.render(edit as Edit, { out })

const mp4 = suite('mp4 output')
mp4.before(async () => {
  png = await solidPng(join(dir, 'p.png'), 64, 64, '#ff8800')
})
mp4('H.264 yuv420p at the asked size and fps, frame count = duration × fps, faststart', async () => {
  const r = await render({ ...title(2), output: { format: 'mp4', size: { width: 320, height: 180 }, fps: 25 } })
  const p = await probe(r.path, { countFrames: true })
  const v = p.streams.find((s) => s.type === 'video')!
  assert.is(v.codec, 'h264')
  assert.is(v.pixFmt, 'yuv420p')
  assert.is(v.width, 320)
  assert.is(v.height, 180)
  assert.is(v.fps, 25)
  assert.is(v.frames, 50)
  assert.is(r.frames, 50)
  assert.is(p.streams.filter((s) => s.type === 'audio').length, 0)
  assert.ok(isFastStart(r.path), 'moov before mdat')
  assert.ok(Math.abs((p.duration ?? 0) - 2) < 0.05, `duration ${p.duration}`)
})

const FPS: [number, string, number][] = [
  [12, '12/1', 6],
  [15, '15/1', 8],
  [23.976, '24000/1001', 12],
  [29.97, '30000/1001', 15],
  [50, '50/1', 25],
  [60, '60/1', 30],
]
mp4('every frame rate from 12 to 60 (NTSC rates exact)', async () => {
  for (const [fps, , frames] of FPS) {
    const r = await render({ ...title(0.5), output: { format: 'mp4', size: { width: 64, height: 64 }, fps } })
    const v = (await probe(r.path, { countFrames: true })).streams[0]!
    assert.is(v.frames, frames, `${fps} fps → ${frames} frames`)
    assert.ok(Math.abs(v.fps! - fps) < 0.001, `${fps} fps → ${v.fps}`)
  }
})
mp4('resolution × aspectRatio sizes, including 4k', async () => {
  const cases: [string, string, number, number][] = [
    ['preview', '9:16', 288, 512],
    ['mobile', '4:5', 288, 360],
    ['sd', '1:1', 576, 576],
    ['4k', '16:9', 3840, 2160],
  ]
  for (const [resolution, aspectRatio, w, h] of cases) {
    const r = await render({ ...title(1 / 12), output: { format: 'mp4', resolution, aspectRatio, fps: 12 } })
    const v = (await probe(r.path)).streams[0]!
    assert.equal([v.width, v.height], [w, h], `${resolution} ${aspectRatio}`)
  }
})
mp4('quality maps to the encoder: verylow files are smaller than veryhigh', async () => {
  const edit = (quality: string) => ({
    timeline: { tracks: [{ clips: [{ asset: { type: 'image', src: png }, start: 0, length: 1, transition: { in: 'fade' } }] }] },
    output: { size: { width: 320, height: 180 }, quality },
  })
  const low = await render(edit('verylow'))
  const high = await render(edit('veryhigh'))
  assert.ok(low.bytes < high.bytes, `${low.bytes} < ${high.bytes}`)
})
mp4('a draft encodes for speed (x264 ultrafast, fast AAC): the same frames, rate and streams, only a larger file', async () => {
  const tone = await lavfi('sine=f=440:r=48000:d=2', join(dir, 'tone.m4a'))
  const edit = {
    timeline: { soundtrack: { src: tone }, tracks: [{ clips: [{ asset: { type: 'image', src: png }, start: 0, length: 2, transition: { in: 'fade' } }] }] },
    output: { format: 'mp4', size: { width: 320, height: 180 }, fps: 25 },
  } as Edit
  const kept = await renderer.render(edit, { out: join(dir, 'kept.mp4') })
  const draft = await renderer.render(edit, { out: join(dir, 'draft.mp4'), draft: true })
  const streams = async (path: string) =>
    (await probe(path, { countFrames: true })).streams.map((s) => [s.type, s.codec, s.frames ?? Math.round((s.duration ?? 0) * 10) / 10])
  assert.equal(await streams(draft.path), await streams(kept.path))
  // x264 writes its settings into the stream: ultrafast is the preset without CABAC.
  const settings = (path: string) => /x264 - core .*?options: ([^\0]*)/.exec(readFileSync(path, 'latin1'))?.[1] ?? ''
  assert.match(settings(draft.path), /\bcabac=0\b/)
  assert.match(settings(kept.path), /\bcabac=1\b/)
})
mp4.run()

const failures = suite('failures')
failures('a missing source names the clip path and the source', async () => {
  const out = join(dir, 'missing.mp4')
  try {
    await render(
      {
        timeline: {
          tracks: [
            { clips: [{ asset: { type: 'title', text: 'a' }, start: 0, length: 1 }] },
            { clips: [{ asset: { type: 'image', src: 'nope/none.png' }, start: 0, length: 1 }] },
          ],
        },
      },
      out,
    )
    assert.unreachable()
  } catch (e) {
    assert.instance(e, RenderError)
    assert.is((e as RenderError).code, 'E_ASSET_UNREADABLE')
    assert.match((e as Error).message, /timeline\.tracks\[1\]\.clips\[0\]\.asset\.src: cannot load "nope\/none\.png"/)
    assert.not.ok(existsSync(out), 'no partial output')
  }
})
failures('a file that is not an image fails with E_ASSET_UNREADABLE', async () => {
  try {
    await render({ timeline: { tracks: [{ clips: [{ asset: { type: 'image', src: join(import.meta.dirname, 'output.test.ts') }, start: 0, length: 1 }] }] } })
    assert.unreachable()
  } catch (e) {
    assert.is((e as RenderError).code, 'E_ASSET_UNREADABLE')
    assert.match((e as Error).message, /tracks\[0\]\.clips\[0\]\.asset\.src/)
  }
})
failures('an AbortSignal cancels a render and removes the partial file', async () => {
  const controller = new AbortController()
  const out = join(dir, 'cancelled.mp4')
  const renderer2 = createRenderer()
  const started = renderer2.render(
    { ...title(30), output: { size: { width: 320, height: 180 }, fps: 25 } },
    {
      out,
      signal: controller.signal,
      onProgress: (p) => p.stage === 'rendering' && p.frame > 10 && controller.abort(),
    },
  )
  try {
    await started
    assert.unreachable()
  } catch (e) {
    assert.is((e as RenderError).code, 'E_CANCELLED')
  }
  await new Promise((r) => setTimeout(r, 200))
  assert.not.ok(existsSync(out), 'partial output removed')
  assert.equal(pgrep('ffmpeg', process.pid).filter(running), [], 'its encoder and decoders are gone')
})
failures('an asset type with no registered plugin fails at plan time, listing the registered ones', async () => {
  // A compositor without the luma plugin: the edit is valid Shotstack, but nothing can draw it.
  const bare = createCompositor({
    fallbackFont: DEFAULT_FONT,
    fonts: builtinFonts,
    plugins: builtinPlugins().filter((p) => !(p.kind === 'asset' && p.name === 'luma')),
  })
  try {
    await bare.render({ timeline: { tracks: [{ clips: [{ asset: { type: 'luma', src: png }, start: 0, length: 1 }] }] } }, { out: join(dir, 'bare.mp4') })
    assert.unreachable()
  } catch (e) {
    assert.is((e as RenderError).code, 'E_PLUGIN_NOT_FOUND')
    assert.match((e as Error).message, /no asset plugin "luma"; known: .*image.*title/)
  }
})
failures.run()
