import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { builtinFits } from '../../plugins/index.js'

const fit = (name: string) => builtinFits.find((f) => f.name === name)!
const box = { width: 320, height: 180 }

// [fit, source, expected drawn size]
const rows: [string, [number, number], [number, number]][] = [
  ['crop', [100, 100], [320, 320]], // fill, keep ratio, overflow cropped
  ['crop', [640, 180], [640, 180]],
  ['cover', [100, 100], [320, 180]], // stretch (Shotstack's meaning)
  ['contain', [100, 100], [180, 180]], // letterbox
  ['contain', [640, 180], [320, 90]],
  ['none', [100, 50], [100, 50]], // native pixels
]
for (const [name, [w, h], [ew, eh]] of rows) {
  test(`${name}: ${w}x${h} in 320x180 → ${ew}x${eh}`, () => assert.equal(fit(name).fit({ width: w, height: h }, box), { width: ew, height: eh }))
}

test.run()
