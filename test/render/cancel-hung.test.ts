import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import * as v from 'valibot'
import { createRenderer, defineAssetPlugin, defineOutputPlugin, RenderError } from '../../index.js'
import { tempDir } from '../helpers/media.js'
import { edit } from '../helpers/render.js'

// A render's `signal` cancels it even while a plugin's hook does not answer (a hung download in `prepare`, a
// decoder that never starts in `open`, a frame that never comes, an encoder's `write`, `open` or `close` that
// never returns): `render` rejects with E_CANCELLED at once, as the library's docs promise. What answers after
// that is let go: a late asset disposed, a late source closed, a late encoder aborted.

const test = suite('cancelling a render whose plugin hangs')
const dir = tempDir()
let hangIn = ''
/** Lets the hung hook answer (after the cancel). */
let release = () => {}
const hold = () => new Promise<void>((r) => (release = r))
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
const renderer = createRenderer({ plugins: [stuck, slowSink], cacheDir: join(dir, 'cache') })

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

test.run()
