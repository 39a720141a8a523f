import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createRenderer } from '../../index.js'
import type { FrameSink } from '../../kit.js'
import { renderFrames } from '../../core/render/frame-loop.js'
import { solidPng, tempDir } from '../helpers/media.js'
import { edit, renderAndDecode } from '../helpers/render.js'

const dir = tempDir()
const streaming = suite('streaming')
let png = ''
streaming.before(async () => {
  png = await solidPng(join(dir, 'p.png'), 64, 64, '#ff0000')
})

streaming('a slow encoder holds the compositor back: at most 3 frames in flight, 3 buffers reused', async () => {
  const renderer = createRenderer()
  const plan = await renderer.plan(edit([{ asset: { type: 'image', src: png }, start: 0, length: 4, transition: { in: 'fade', out: 'fade' } }]))
  let inflight = 0,
    peak = 0,
    written = 0
  const buffers = new Set<Uint8Array>()
  const sink: FrameSink = {
    async write(rgba) {
      buffers.add(rgba)
      inflight++
      peak = Math.max(peak, inflight)
      await new Promise((r) => setTimeout(r, 2))
      inflight--
      written++
    },
    close: async () => ({ path: '', bytes: 0 }),
    abort() {},
  }
  try {
    const r = await renderFrames(plan, sink, { signal: new AbortController().signal })
    assert.is(written, plan.frames)
    assert.is(r.frames, 100)
    assert.ok(peak <= 3, `peak in flight ${peak}`)
    assert.ok(buffers.size <= 3, `${buffers.size} distinct buffers`)
  } finally {
    await plan.dispose()
  }
})

streaming('static frames are composited once and repeated; animated ones every frame', async () => {
  const still = await renderAndDecode(edit([{ asset: { type: 'image', src: png }, start: 0, length: 2 }]))
  assert.is(still.result.frames, 50)
  // Made (drawn with GL, or around it where the still covers the frame: core/render/cover.ts) once.
  const made = (r: { drawn: number; direct?: number }) => r.drawn + (r.direct ?? 0)
  assert.is(made(still.result), 1)
  const faded = await renderAndDecode(edit([{ asset: { type: 'image', src: png }, start: 0, length: 2, transition: { in: 'fade' } }]))
  assert.ok(made(faded.result) >= 25 && made(faded.result) <= 27, `made ${made(faded.result)}`)
  // Repeated frames are still real frames in the file.
  assert.is(faded.frames.count, 50)
})
streaming.run()
