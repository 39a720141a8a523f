import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { encoderProcessEnv } from '../../core/ffmpeg/malloc-env.js'
import { createRenderer, RenderError } from '../../index.js'
import { IsolatedRenderer } from '../../service/isolation/isolated-renderer.js'
import { childProcesses, groupProcesses } from '../helpers/children.js'
import { lavfi, tempDir } from '../helpers/media.js'
import { edit } from '../helpers/render.js'
import { renderChildren, running } from '../helpers/processes.js'
import { LOOPBACK, titleEdit } from '../helpers/service.js'

// Render processes fix glibc's mmap threshold at 1 MB (core/ffmpeg/malloc-env.ts): without it glibc raises the
// threshold to each large block freed, and freed frames and photos stay resident for the life of the process.
// Encoders fix it above two of their frames, so each frame's packet comes from the heap again rather than being
// mapped, faulted in and unmapped. Decoders keep glibc's default: with 1 MB they map and unmap every frame.

const dir = tempDir('reelforge-render-process-memory-')

const refuse = () => {
  throw new RenderError('E_PROVIDER_FAILED', 'none here')
}
/** Render processes as the service starts them, here without AI providers. */
const isolatedRenderer = () =>
  new IsolatedRenderer(
    createRenderer({ cacheDir: join(dir, 'cache') }),
    () => ({ cacheDir: join(dir, 'cache'), network: LOOPBACK, files: undefined, baseUrl: '' }),
    refuse,
    refuse,
  )

test("a render process runs with MALLOC_MMAP_THRESHOLD_ at 1 MB unless the operator's environment sets one", async () => {
  const isolated = isolatedRenderer()
  try {
    await isolated.render(titleEdit(1) as never, { out: join(dir, 'title.mp4') })
    const live = renderChildren().filter(running)
    assert.ok(live.length > 0, 'a render process to look at')
    const want = `MALLOC_MMAP_THRESHOLD_=${process.env.MALLOC_MMAP_THRESHOLD_ ?? 1048576}`
    for (const pid of live) assert.ok(readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(want), `pid ${pid}`)
  } finally {
    await isolated.close()
  }
})

/** A small frame's encoder: the least threshold, 4 MB, and the heap's top trimmed past twice that. */
const ENCODER = ['MALLOC_MMAP_THRESHOLD_=4194304', 'MALLOC_TRIM_THRESHOLD_=8388608', 'MALLOC_ARENA_MAX=1']
const encoderAndDecoders = (started: { cmd: string[]; env: string[] }[]) => {
  const ffmpegs = started.filter((p) => p.cmd[0]!.endsWith('ffmpeg'))
  const encoder = ffmpegs.filter((p) => p.cmd.includes('libx264'))
  const decoders = ffmpegs.filter((p) => !p.cmd.includes('libx264') && p.cmd.includes('rawvideo'))
  assert.is(encoder.length, 1, started.map((p) => p.cmd.join(' ')).join('\n'))
  assert.ok(decoders.length >= 1, 'a decoder to look at')
  return { encoder: encoder[0]!, decoders }
}

test("a render process's encoder runs with its own; its decoders with none (they would map every frame they write)", async () => {
  const clip = await lavfi('testsrc2=s=320x240:r=25:d=2', join(dir, 'clip.mp4'))
  const isolated = isolatedRenderer()
  try {
    await isolated.render(titleEdit(0.2) as never, { out: join(dir, 'warm.mp4') })
    const [pid] = renderChildren().filter(running)
    const started = await groupProcesses(
      pid!,
      isolated.render(edit([{ asset: { type: 'video', src: clip }, start: 0, length: 2 }]) as never, { out: join(dir, 'clip-out.mp4') }),
    )
    const { encoder, decoders } = encoderAndDecoders(started)
    if (process.env.MALLOC_MMAP_THRESHOLD_ === undefined) {
      for (const v of ENCODER) assert.ok(encoder.env.includes(v), v)
      for (const d of decoders)
        assert.not.ok(
          d.env.some((v) => v.startsWith('MALLOC_MMAP_THRESHOLD_=')),
          d.cmd.join(' '),
        )
    }
  } finally {
    await isolated.close()
  }
})

test('the library and the CLI: the encoder gets its own, the decoders keep the environment as it is (an own value wins)', async () => {
  const clip = await lavfi('testsrc2=s=320x240:r=25:d=1', join(dir, 'clip1.mp4'))
  const renderer = createRenderer({ cacheDir: join(dir, 'cache') })
  const render = (out: string) => renderer.render(edit([{ asset: { type: 'video', src: clip }, start: 0, length: 1 }]) as never, { out: join(dir, out) })
  const own = process.env.MALLOC_MMAP_THRESHOLD_
  try {
    delete process.env.MALLOC_MMAP_THRESHOLD_
    const unset = encoderAndDecoders(await childProcesses(render('a.mp4')))
    for (const v of ENCODER) assert.ok(unset.encoder.env.includes(v), v)
    for (const d of unset.decoders) assert.not.ok(d.env.some((v) => v.startsWith('MALLOC_MMAP_THRESHOLD_=')))
    process.env.MALLOC_MMAP_THRESHOLD_ = '2097152'
    const set = encoderAndDecoders(await childProcesses(render('b.mp4')))
    for (const p of [set.encoder, ...set.decoders]) assert.ok(p.env.includes('MALLOC_MMAP_THRESHOLD_=2097152'))
    assert.not.ok(set.encoder.env.some((v) => v.startsWith('MALLOC_TRIM_THRESHOLD_=')))
  } finally {
    if (own === undefined) delete process.env.MALLOC_MMAP_THRESHOLD_
    else process.env.MALLOC_MMAP_THRESHOLD_ = own
  }
})

test("an encoder's threshold: above two of its frames (a 1080p I420 frame's 3 MB, a 4K RGBA frame's capped at glibc's 32 MB)", () => {
  const env = (bytes: number) => {
    const e = encoderProcessEnv(bytes, {})
    return [Number(e.MALLOC_MMAP_THRESHOLD_), Number(e.MALLOC_TRIM_THRESHOLD_)]
  }
  assert.equal(env(320 * 180 * 1.5), [4 << 20, 8 << 20])
  assert.equal(env(1920 * 1080 * 1.5), [1920 * 1080 * 3, 1920 * 1080 * 6])
  assert.equal(env(3840 * 2160 * 4), [32 << 20, 64 << 20])
  // The operator's own setting (either), or the render process's own threshold handed down: left as it is.
  assert.equal(encoderProcessEnv(1e6, { MALLOC_TRIM_THRESHOLD_: '1' }), { MALLOC_TRIM_THRESHOLD_: '1' })
  assert.equal(encoderProcessEnv(1e6, { MALLOC_MMAP_THRESHOLD_: '5' }), { MALLOC_MMAP_THRESHOLD_: '5' })
  assert.equal(encoderProcessEnv(1e6, { MALLOC_ARENA_MAX: '4' }), { MALLOC_ARENA_MAX: '4' })
})

test.run()
