import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createRenderer, renderSegmented } from '../../index.js'
import { probe } from '../../kit.js'
import { chartEdit, PATCHES, patch, playerRgb } from '../helpers/colour.js'
import { tempDir } from '../helpers/media.js'

// Colour as players show it: a chart of patches rendered to every video format, decoded the way a player does
// (the file's matrix tag honoured; untagged HD read as BT.709, as browsers and every platform do), each patch
// within ±3 levels of the colour written in the edit; every video output tagged BT.709, TV range.

const dir = tempDir('reelforge-colour-')
const within = (a: number[], b: number[], tol: number) => a.every((v, c) => Math.abs(v - b[c]!) <= tol)

const test = suite('colour: BT.709 out, tagged')
const renderer = createRenderer({ cacheDir: join(dir, 'cache') })
for (const [format, quality] of [
  ['mp4', 'high'],
  ['webm', 'high'],
  ['mov', 'medium'],
  ['mov', 'high'],
] as const) {
  test(`${format} (${quality}): every patch within ±3 of the edit's colour, as a player decodes it; tagged bt709/tv`, async () => {
    const out = join(dir, `chart-${quality}.${format}`)
    await renderer.render(chartEdit({ format, quality }), { out })
    const v = (await probe(out)).streams.find((s) => s.type === 'video')!
    assert.equal([v.colorSpace, v.colorPrimaries, v.colorTransfer, v.colorRange], ['bt709', 'bt709', 'bt709', 'tv'], 'the tags')
    const rgb = await playerRgb(out)
    for (const [i, [, want]] of PATCHES.entries()) assert.ok(within(patch(rgb, i), want, 3), `patch ${i}: ${patch(rgb, i)} for ${want}`)
  })
}
test('a segmented render keeps the tags and the colours through the join', async () => {
  const edit = chartEdit({ format: 'mp4', quality: 'high' })
  ;(edit.timeline.tracks[0]!.clips as { length: number }[]).forEach((c) => (c.length = 3))
  const out = join(dir, 'chart-segments.mp4')
  await renderSegmented(renderer, edit, { out, segments: 2, cacheDir: join(dir, 'cache') })
  const v = (await probe(out)).streams.find((s) => s.type === 'video')!
  assert.equal([v.colorSpace, v.colorPrimaries, v.colorTransfer, v.colorRange], ['bt709', 'bt709', 'bt709', 'tv'])
  const rgb = await playerRgb(out, 2.5)
  for (const [i, [, want]] of PATCHES.entries()) assert.ok(within(patch(rgb, i), want, 3), `patch ${i}: ${patch(rgb, i)} for ${want}`)
})
test.run()
