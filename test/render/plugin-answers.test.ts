import { join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import * as v from 'valibot'
import { createRenderer, defineAssetPlugin, RenderError } from '../../index.js'
import { tempDir } from '../helpers/media.js'
import { edit } from '../helpers/render.js'

// What a plugin's `prepare` answers is checked where it answers: nothing, or a size that is not a positive
// width and height, fails the render as that plugin's, naming the clip — not as a bare TypeError later, nor a
// clip that silently disappears from every frame.

const dir = tempDir()
let answer: unknown
const odd = defineAssetPlugin({
  kind: 'asset',
  name: 'odd',
  schema: v.looseObject({ type: v.literal('odd') }),
  prepare: async () => answer as never,
})
const renderer = createRenderer({ plugins: [odd], cacheDir: join(dir, 'cache') })

for (const [what, value] of [
  ['nothing', undefined],
  ['a size of NaN', { size: { width: Number.NaN, height: 10 } }],
  ['a size of 0', { size: { width: 0, height: 10 } }],
  ['no size at all', { static: true }],
] as const) {
  test(`prepare answering ${what}: the plugin's failure, naming clip, plugin and hook`, async () => {
    answer = value
    try {
      await renderer.render(edit([{ asset: { type: 'odd' }, start: 0, length: 0.2 }], { fps: 12 }), { out: join(dir, 'odd.mp4') })
      assert.unreachable()
    } catch (e) {
      assert.instance(e, RenderError)
      assert.is((e as RenderError).code, 'E_PLUGIN_FAILED')
      assert.match((e as Error).message, /^timeline\.tracks\[0\]\.clips\[0\]\.asset: \[asset:odd\] prepare: answered no prepared asset/)
    }
  })
}

test.run()
