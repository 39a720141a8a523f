import { join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { createRenderer, RenderError, type Edit } from '../../index.js'
import { isRed, locate } from '../helpers/frames.js'
import { solidPng, tempDir } from '../helpers/media.js'
import { half } from '../helpers/open-kind-plugins.js'
import { edit, renderAndDecode } from '../helpers/render.js'

// A fit is a plugin kind like a transition: a registered fit's name validates and the plan sizes the asset with
// it; Shotstack's four stay the built-in defaults, and a misspelt one is refused naming the known ones.

declare module '../../index.js' {
  interface FitNames {
    half: true
  }
}

const dir = tempDir()
const redSquare = () => solidPng(join(dir, 'red.png'), 90, 90, '#ff0000')
const still = (fit: string, src: string) => edit([{ asset: { type: 'image', src }, start: 0, length: 0.2, fit }])

test("a fit plugin's name validates and sizes the asset: half the box, centred", async () => {
  const src = await redSquare()
  const { frames } = await renderAndDecode(still('half', src), { plugins: [half] })
  const red = locate(frames, 0, isRed)
  // The 320×180 box, halved: 160×90, centred (±2 px for chroma edges).
  assert.ok(Math.abs(red.maxX - red.minX + 1 - 160) <= 2, `width ${red.maxX - red.minX + 1}`)
  assert.ok(Math.abs(red.maxY - red.minY + 1 - 90) <= 2, `height ${red.maxY - red.minY + 1}`)
  assert.ok(Math.abs(red.x - 160) <= 2 && Math.abs(red.y - 90) <= 2, `centre ${red.x},${red.y}`)
  // The same edit with Shotstack's crop fills the frame: the plugin, not a default, drew the first.
  const { frames: cropped } = await renderAndDecode(still('crop', src))
  assert.ok(locate(cropped, 0, isRed).count > 0.95 * 320 * 180)
})

test('a fit nobody registered is refused at its path, naming the known ones', () => {
  const bad: Edit = still('cropp', 'x.png')
  try {
    createRenderer().validate(bad)
    assert.unreachable()
  } catch (e) {
    assert.instance(e, RenderError)
    assert.match((e as RenderError).message, /timeline\.tracks\[0\]\.clips\[0\]\.fit: unknown fit "cropp"; known: crop, cover, contain, none/)
  }
  assert.throws(() => createRenderer().validate(still('half', 'x.png')), /unknown fit "half"/, 'without the plugin, half is unknown')
})

test('the compiler knows fit names: a declared plugin fit compiles, a misspelt one does not', () => {
  const clip = (fit: NonNullable<Edit['timeline']['tracks'][number]['clips'][number]['fit']>) => fit
  assert.is(clip('half'), 'half')
  assert.is(clip('contain'), 'contain')
  // @ts-expect-error — a misspelt built-in fit
  assert.is(clip('cropp'), 'cropp')
})

test.run()
