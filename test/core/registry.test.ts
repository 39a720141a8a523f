import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { createRegistry, RenderError, type FitPlugin } from '../../core/index.js'
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
