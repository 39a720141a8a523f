import { fileURLToPath } from 'node:url'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { loadPluginModules } from '../../service/isolation/plugin-modules.js'

// A server's plugin modules (`REELFORGE_PLUGINS`) are read at its start; one that cannot be used stops the start
// with the module's path and what is wrong with it — not a dependency-injection message naming neither.

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/plugin-modules/${name}`, import.meta.url))

test('a good module gives its plugins', async () => {
  const plugins = await loadPluginModules([fixture('good.mjs')])
  assert.equal(
    plugins.map((p) => `${p.kind}:${p.name}`),
    ['fit:thirdFixture'],
  )
})

for (const [file, why] of [
  ['throws-on-import.mjs', /throws-on-import\.mjs.*could not be loaded: module init boom/],
  ['not-a-plugin.mjs', /not-a-plugin\.mjs: .*unknown plugin kind undefined/],
  ['clashes.mjs', /clashes\.mjs: duplicate effect plugin "zoomIn"/],
  ['empty.mjs', /empty\.mjs exports an empty list: no plugin/],
] as const) {
  test(`${file}: the start stops naming the module`, async () => {
    try {
      await loadPluginModules([fixture('good.mjs'), fixture(file)])
      assert.unreachable()
    } catch (e) {
      assert.match((e as Error).message, /^plugin module /)
      assert.match((e as Error).message, why)
    }
  })
}

test.run()
