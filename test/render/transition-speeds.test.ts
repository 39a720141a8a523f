import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createRenderer, defineGlslTransition, defineTransitionPlugin, type Edit, RenderError } from '../../index.js'
import { pluginCatalog } from '../../service/media/catalog.js'
import { pixel } from '../helpers/frames.js'
import { edit, renderAndDecode } from '../helpers/render.js'

// A transition plugin's `durations` name its speeds: `{ '': 1, Slow: 2, Fast: 0.5 }` is wipeDown, wipeDownSlow and
// wipeDownFast (docs/plugins.md), and a GLSL transition has all four for free. Those names validate, render and are
// listed by the catalog (`GET /v1/plugins`) like Shotstack's `fadeSlow`; a speed the plugin did not name does not.

const test = suite('speed variants of plugin transitions')

const wipeDown = defineTransitionPlugin({
  kind: 'transition',
  name: 'wipeDown',
  durations: { '': 1, Slow: 2, Fast: 0.5 },
  compile: () => ({ apply: (layer, p) => void (layer.clipBottom = p) }),
})
const halves = defineGlslTransition({ name: 'gl:halves', glsl: 'vec4 transition(vec2 uv) { return uv.x < progress ? getToColor(uv) : getFromColor(uv); }' })
const renderer = createRenderer({ plugins: [wipeDown, halves] })

const withTransition = (name: string) =>
  ({
    timeline: { tracks: [{ clips: [{ asset: { type: 'title', text: 'Hi' }, start: 0, length: 3, transition: { in: name } }] }] },
    output: { format: 'mp4', size: { width: 64, height: 36 }, fps: 12 },
  }) as Edit

test('the speeds a plugin names validate; Shotstack-style variants of GLSL transitions too', () => {
  for (const name of ['wipeDown', 'wipeDownSlow', 'wipeDownFast', 'gl:halvesSlow', 'gl:halvesVeryFast', 'gl:cubeSlow', 'gl:cubeFast', 'fadeSlow'])
    assert.ok(renderer.validate(withTransition(name)), name)
})

test('a speed the plugin did not name is refused at its path', () => {
  try {
    renderer.validate(withTransition('wipeDownVeryFast'))
    assert.unreachable()
  } catch (e) {
    assert.instance(e, RenderError)
    assert.match((e as Error).message, /timeline\.tracks\[0\]\.clips\[0\]\.transition\.in.*unknown transition "wipeDownVeryFast"/)
  }
})

test('the catalog lists them as names of their own', () => {
  const { transitions } = pluginCatalog(renderer.registry)
  for (const name of ['wipeDownSlow', 'wipeDownFast', 'gl:halvesFast', 'gl:cubeSlow']) assert.ok(transitions.includes(name), name)
  assert.not.ok(transitions.includes('wipeDownVeryFast'))
})

test('wipeDownSlow draws at its own duration: half uncovered at 1 s, where wipeDown is done', async () => {
  const white = (name: string) =>
    edit(
      [
        {
          asset: { type: 'shape', shape: 'rectangle', rectangle: { width: 320, height: 180 }, fill: { color: '#ffffff' } },
          start: 0,
          length: 3,
          transition: { in: name },
        },
      ],
      { fps: 12 },
      { background: '#000000' },
    )
  const at1s = async (name: string) => (await renderAndDecode(white(name), { plugins: [wipeDown, halves] })).frames
  const slow = await at1s('wipeDownSlow')
  assert.ok(pixel(slow, 12, 160, 30)[0] > 200 && pixel(slow, 12, 160, 150)[0] < 40, 'Slow: the top half only')
  const plain = await at1s('wipeDown')
  assert.ok(pixel(plain, 12, 160, 150)[0] > 200, 'plain: all of it')
})

test.run()
