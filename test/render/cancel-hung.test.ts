import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import * as v from 'valibot'
import { createRenderer, defineAssetPlugin, defineOutputPlugin, RenderError } from '../../index.js'
import { type WasmPixels, wasmPixels } from '../../core/render/wasm-pixels.js'
import { stillSource } from '../../plugins/lib/raster/still-source.js'
import { tempDir } from '../helpers/media.js'
import { edit } from '../helpers/render.js'

// A render's `signal` cancels it even while a plugin's hook does not answer (a hung download in `prepare`, a
// decoder that never starts in `open`, a frame that never comes, an encoder's `write`, `open` or `close` that
// never returns): `render` rejects with E_CANCELLED at once, as the library's docs promise. What answers after
// that is let go: a late asset disposed, a late source closed, a late encoder aborted.

const test = suite('cancelling a render whose plugin hangs')
const dir = tempDir()
let hangIn = ''
/** The hung hooks waiting (every write, where writes hang). */
const held: (() => void)[] = []
const hold = () => new Promise<void>((r) => held.push(r))
/** Lets the hung hooks answer (after the cancel). */
const release = () => {
  for (const answer of held.splice(0)) answer()
}
/** What was let go, by hook. */
const letGo: string[] = []

const stuck = defineAssetPlugin({
  kind: 'asset',
  name: 'stuck',
  schema: v.looseObject({ type: v.literal('stuck') }),
  async prepare() {
    if (hangIn === 'prepare') await hold()
    return {
      size: { width: 16, height: 16 },
      dispose: () => void letGo.push('prepare'),
      async open(gpu) {
        if (hangIn === 'open') await hold()
        const pixels = new Uint8Array(16 * 16 * 4).fill(255)
        const texture = gpu.texture(pixels, 16, 16)
        return { frame: () => (hangIn === 'frame' ? hold().then(() => texture) : texture), close: () => void letGo.push('open') }
      },
    }
  },
})
const slowSink = defineOutputPlugin({
  kind: 'output',
  name: 'stuckfile',
  mime: 'video/x-stuck',
  yuvFrames: true, // I420: a photo it covers is warped and packed straight into the frame's buffer
  extension: 'stuck',
  takes: 'video',
  async open(spec) {
    if (hangIn === 'output.open') await hold()
    return {
      write: () => (hangIn === 'output.write' ? hold() : undefined),
      close: async () => (hangIn === 'output.close' ? hold().then(() => ({ path: spec.path, bytes: 0 })) : { path: spec.path, bytes: 0 }),
      abort: () => void letGo.push('output.open'),
    }
  },
})
// A photo's memory goes to the next photo once its render closes it (core/render/wasm-pixels.ts), and a cancelled
// render closes its sources while its frame loop may still wait for a free buffer: woken later, that loop must
// not warp in the memory another render's photo now holds.
let photo: WasmPixels | undefined
const photoPlugin = defineAssetPlugin({
  kind: 'asset',
  name: 'heldphoto',
  schema: v.looseObject({ type: v.literal('heldphoto') }),
  async prepare() {
    return {
      size: { width: 64, height: 36 },
      static: true,
      async open(gpu, need) {
        const pixels = wasmPixels(need)
        pixels.view().fill(255) // opaque: frames it covers are warped on the CPU
        photo = pixels
        return stillSource(gpu, pixels, need, () => pixels.release())
      },
    }
  },
})
const renderer = createRenderer({ plugins: [stuck, slowSink, photoPlugin], cacheDir: join(dir, 'cache') })

for (const hook of ['prepare', 'open', 'frame', 'output.open', 'output.write', 'output.close']) {
  test(`a hung ${hook}: E_CANCELLED within a second of the abort; what answers late is let go`, async () => {
    hangIn = hook
    letGo.length = 0
    const controller = new AbortController()
    const clip = { asset: { type: 'stuck' }, start: 0, length: 0.5 }
    const rendering = renderer.render(edit([clip], { format: 'stuckfile', size: { width: 64, height: 36 }, fps: 12 }), {
      out: join(dir, `${hook}.stuck`),
      signal: controller.signal,
    })
    const outcome = rendering.then(
      () => 'finished',
      (e: unknown) => e,
    )
    setTimeout(() => controller.abort(), 300)
    const settled = await Promise.race([outcome, new Promise((r) => setTimeout(() => r('still pending'), 1500))])
    assert.instance(settled, RenderError, String(settled))
    assert.is((settled as RenderError).code, 'E_CANCELLED')
    // The hook answers now: an asset, a source or an encoder that came too late is disposed, closed or aborted.
    release()
    await new Promise((r) => setTimeout(r, 50))
    if (hook === 'prepare' || hook === 'open' || hook === 'output.open') assert.ok(letGo.includes(hook), `${hook}: ${letGo}`)
  })
}

test("a cancelled render's loop, woken by its encoder, does not draw in a photo memory handed on", async () => {
  hangIn = 'output.write'
  const controller = new AbortController()
  // Zooming: every frame warped on the CPU, none reused.
  const clip = { asset: { type: 'heldphoto' }, start: 0, length: 2, effect: 'zoomIn' }
  const outcome = renderer
    .render(edit([clip], { format: 'stuckfile', size: { width: 64, height: 36 }, fps: 12 }), { out: join(dir, 'photo.stuck'), signal: controller.signal })
    .catch((e: unknown) => e)
  // Three frames in flight fill the pool: the loop now waits for a buffer for the fourth.
  while (held.length < 3) await new Promise((r) => setTimeout(r, 10))
  await new Promise((r) => setTimeout(r, 50))
  controller.abort()
  assert.is(((await outcome) as RenderError).code, 'E_CANCELLED')
  // The photo was closed with the render: its memory goes to the next photo of its size, in another render.
  const next = wasmPixels(photo!.size)
  assert.is(next.memory, photo!.memory)
  next.view().fill(7)
  const before = Buffer.from(new Uint8Array(next.memory.buffer).slice())
  release()
  await new Promise((r) => setTimeout(r, 200))
  assert.ok(before.equals(Buffer.from(new Uint8Array(next.memory.buffer))), 'the memory as its new owner left it')
})

test.run()
