import { test } from 'uvu'
import * as assert from 'uvu/assert'
import * as v from 'valibot'
import { createRegistry, RenderError, type AssetPlugin, type FitPlugin } from '../../core/index.js'
import { createRenderer } from '../../index.js'
import { builtinPlugins } from '../../plugins/index.js'

const fit = (name: string): FitPlugin => ({ kind: 'fit', name, fit: (s) => s })

test('a duplicate name within a kind throws E_PLUGIN_DUPLICATE at creation', () => {
  try {
    createRegistry([fit('stretch'), fit('stretch')])
    assert.unreachable()
  } catch (e) {
    assert.instance(e, RenderError)
    assert.is((e as RenderError).code, 'E_PLUGIN_DUPLICATE')
    assert.match((e as Error).message, /fit plugin "stretch"/)
  }
})

/** An asset plugin with `schema`, drawing nothing (never rendered here). */
const assetWith = (schema: unknown): AssetPlugin =>
  ({ kind: 'asset', name: 'chart', schema, prepare: async () => ({ size: { width: 2, height: 2 } }) }) as unknown as AssetPlugin

test('an asset plugin whose schema is not a valibot schema is refused when registered, naming it', () => {
  for (const schema of [{}, undefined, { parse: () => ({}) }]) {
    try {
      createRegistry([assetWith(schema)])
      assert.unreachable()
    } catch (e) {
      assert.instance(e, RenderError)
      assert.is((e as RenderError).code, 'E_PLUGIN_FAILED')
      assert.match((e as Error).message, /\[asset:chart\] schema: not a valibot schema/)
    }
  }
})

test("a schema that throws while checking a clip is the plugin's failure, naming the clip, plugin and hook", () => {
  const throwing = v.looseObject({
    type: v.literal('chart'),
    data: v.pipe(
      v.unknown(),
      v.check(() => {
        throw new Error('checker blew up')
      }),
    ),
  })
  const renderer = createRenderer({ plugins: [assetWith(throwing)] })
  const edit = { timeline: { tracks: [{ clips: [{ asset: { type: 'chart', data: 1 }, start: 0, length: 1 }] }] }, output: { format: 'mp4' } }
  try {
    renderer.validate(edit)
    assert.unreachable()
  } catch (e) {
    assert.instance(e, RenderError)
    assert.is((e as RenderError).code, 'E_PLUGIN_FAILED')
    assert.is((e as Error).message, 'timeline.tracks[0].clips[0].asset: [asset:chart] schema: checker blew up')
  }
})

test('a plugin missing what its kind needs is refused when registered, naming the plugin and the field', () => {
  const refused = (plugin: unknown, pattern: RegExp) => {
    try {
      createRenderer({ plugins: [plugin as never] })
      assert.unreachable(`accepted ${JSON.stringify(plugin)}`)
    } catch (e) {
      assert.instance(e, RenderError)
      assert.is((e as RenderError).code, 'E_PLUGIN_FAILED')
      assert.match((e as Error).message, pattern)
    }
  }
  const apply = () => ({ apply() {} })
  refused(undefined, /plugins\[0\]: a plugin must be an object with a kind and a name, got undefined/)
  refused({ kind: 'effect', compile: apply }, /\[effect:\?\] name: must be a non-empty string, got undefined/)
  refused({ kind: 'effect', name: 'drift' }, /\[effect:drift\] compile: must be a function, got undefined/)
  refused({ kind: 'transition', name: 'nodur', compile: apply }, /\[transition:nodur\] durations: must be an object with "" in seconds/)
  refused({ kind: 'transition', name: 'neg', compile: apply, durations: { '': -1 } }, /\[transition:neg\] durations: /)
  refused({ kind: 'filter', name: 'look' }, /\[filter:look\] glsl: must be a string/)
  refused({ kind: 'fit', name: 'half' }, /\[fit:half\] fit: must be a function/)
  refused({ kind: 'provider', name: 'gradient', models: 'flux', generate() {} }, /\[provider:gradient\] models: must be an array of names/)
  refused({ kind: 'provider', name: 'gradient', models: ['flux'] }, /\[provider:gradient\] generate: must be a function/)
  refused(
    { kind: 'output', name: 'avif', mime: 'image/avif', extension: 'avif', takes: 'frames', open() {} },
    /\[output:avif\] takes: must be one of video, still, audio/,
  )
  refused({ kind: 'loader', name: 'ipfs', test: () => true }, /\[loader:ipfs\] load: must be a function/)
  refused({ kind: 'asset', name: 'chart', schema: v.looseObject({}) }, /\[asset:chart\] prepare: must be a function/)
  refused({ kind: 'ai', name: 'echo', task: 'text', models: ['echo'] }, /\[ai:echo\] run: must be a function/)
})
test('the same name in different kinds is fine', () => {
  const r = createRegistry([...builtinPlugins(), { kind: 'effect', name: 'fade', compile: () => ({ apply() {} }) }])
  assert.is(r.get('transition', 'fade').kind, 'transition')
  assert.is(r.get('effect', 'fade').kind, 'effect')
})

test('an unknown name is E_PLUGIN_NOT_FOUND listing the known ones', () => {
  const r = createRegistry(builtinPlugins())
  try {
    r.get('fit', 'squash', 'timeline.tracks[0].clips[0].fit')
    assert.unreachable()
  } catch (e) {
    assert.is((e as RenderError).code, 'E_PLUGIN_NOT_FOUND')
    assert.match((e as Error).message, /timeline\.tracks\[0\]\.clips\[0\]\.fit: no fit plugin "squash"; known: contain, cover, crop, none/)
  }
})

test('registries are per instance, not global', () => {
  const a = createRegistry([fit('mine')])
  const b = createRegistry([])
  assert.ok(a.find('fit', 'mine'))
  assert.is(b.find('fit', 'mine'), undefined)
})

test.run()
