import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import * as v from 'valibot'
import { createRenderer, defineAssetPlugin, defineOutputPlugin, RenderError } from '../../index.js'
import { tempDir } from '../helpers/media.js'
import { edit } from '../helpers/render.js'

// A render's `signal` cancels it even while a plugin's hook never answers (a hung download in `prepare`, a decoder
// that never starts in `open`, a frame that never comes, an encoder's `write`, `open` or `close` that never
// returns): `render` rejects with E_CANCELLED at once, as the library's docs promise, instead of waiting forever.

const test = suite('cancelling a render whose plugin hangs')
const dir = tempDir()
const never = () => new Promise<never>(() => {})
let hangIn = ''

const stuck = defineAssetPlugin({
  kind: 'asset',
  name: 'stuck',
  schema: v.looseObject({ type: v.literal('stuck') }),
  async prepare() {
    if (hangIn === 'prepare') await never()
    return {
      size: { width: 16, height: 16 },
      async open(gpu) {
        if (hangIn === 'open') await never()
        const pixels = new Uint8Array(16 * 16 * 4).fill(255)
        const texture = gpu.texture(pixels, 16, 16)
        return { frame: () => (hangIn === 'frame' ? never() : texture), close: () => gpu.release(texture) }
      },
    }
  },
})
const slowSink = defineOutputPlugin({
  kind: 'output',
  name: 'stuckfile',
  mime: 'video/x-stuck',
  extension: 'stuck',
  takes: 'video',
  async open(spec) {
    if (hangIn === 'output.open') await never()
    return {
      write: () => (hangIn === 'output.write' ? never() : undefined),
      close: async () => (hangIn === 'output.close' ? never() : { path: spec.path, bytes: 0 }),
      abort() {},
    }
  },
})
const renderer = createRenderer({ plugins: [stuck, slowSink], cacheDir: join(dir, 'cache') })

for (const hook of ['prepare', 'open', 'frame', 'output.open', 'output.write', 'output.close']) {
  test(`a hung ${hook}: E_CANCELLED within a second of the abort`, async () => {
    hangIn = hook
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
  })
}

test.run()
