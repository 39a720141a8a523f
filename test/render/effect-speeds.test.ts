import { join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { EffectContext } from '../../core/index.js'
import { createRenderer, defineEffectPlugin, type Edit } from '../../index.js'
import { tempDir } from '../helpers/media.js'
import { edit } from '../helpers/render.js'

// A plugin's effect takes Shotstack's speed suffixes as the built-in ones do (`zoomInSlow`): `driftSlow` is the
// `drift` plugin compiled with `speed: 'Slow'`, as its EffectContext promises — and for the compiler too.

const dir = tempDir()
const heard: EffectContext['speed'][] = []
const drift = defineEffectPlugin({
  kind: 'effect',
  name: 'drift',
  compile: ({ speed }) => (heard.push(speed), { apply: (layer, p) => void (layer.offsetX += p * 0.1) }),
})
declare module '../../index.js' {
  interface EffectNames {
    drift: true
  }
}
const renderer = createRenderer({ plugins: [drift], cacheDir: join(dir, 'cache') })

test('driftSlow and driftFast validate and compile drift with their speed; a misspelt suffix is still refused', async () => {
  const clip = (effect: string, start: number) => ({ asset: { type: 'title', text: 'x' }, start, length: 0.2, effect })
  const timed: Edit = edit([clip('drift', 0), clip('driftSlow', 0.2), clip('driftFast', 0.4)], { fps: 12 }) as Edit
  await renderer.render(timed, { out: join(dir, 'drift.mp4') })
  assert.equal(heard.sort(), ['', 'Fast', 'Slow'])
  // For the compiler: the declared name's speeds are effect names too (a type error here fails the typecheck).
  const typed: Edit['timeline']['tracks'][number]['clips'][number]['effect'][] = ['driftSlow', 'driftFast']
  assert.is(typed.length, 2)
  assert.throws(() => renderer.validate(edit([clip('driftSlowly', 0)])), /unknown effect "driftSlowly"/)
})

test.run()
