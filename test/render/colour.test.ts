import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createRenderer, type Edit, renderSegmented } from '../../index.js'
import { probe } from '../../kit.js'
import { type StitchRequest, stitchToEdit } from '../../service/jobs/stitch.js'
import { chartEdit, chartVideo, PATCHES, patch, playerRgb } from '../helpers/colour.js'
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
for (const format of ['mp4', 'webm', 'mov'] as const)
  test(`a segmented ${format} render keeps the tags and the colours through the join`, async () => {
    const edit = chartEdit({ format, quality: 'high' })
    ;(edit.timeline.tracks[0]!.clips as { length: number }[]).forEach((c) => (c.length = 3))
    const out = join(dir, `chart-segments.${format}`)
    await renderSegmented(renderer, edit, { out, segments: 2, cacheDir: join(dir, 'cache') })
    const v = (await probe(out)).streams.find((s) => s.type === 'video')!
    assert.equal([v.colorSpace, v.colorPrimaries, v.colorTransfer, v.colorRange], ['bt709', 'bt709', 'bt709', 'tv'])
    const rgb = await playerRgb(out, 2.5)
    for (const [i, [, want]] of PATCHES.entries()) assert.ok(within(patch(rgb, i), want, 3), `patch ${i}: ${patch(rgb, i)} for ${want}`)
  })
test('SD (1024×576) is BT.709 too, tagged so (docs/timeline.md): every patch within ±3', async () => {
  const edit = chartEdit({ format: 'mp4', quality: 'high', size: { width: 1024, height: 576 } })
  // The chart's cells at SD: a quarter of the width, half the height each (offsets are fractions already).
  for (const c of edit.timeline.tracks[0]!.clips as unknown as { asset: { rectangle: object } }[]) c.asset.rectangle = { width: 256, height: 288 }
  const out = join(dir, 'chart-sd.mp4')
  await renderer.render(edit, { out })
  const v = (await probe(out)).streams.find((s) => s.type === 'video')!
  assert.equal([v.height, v.colorSpace, v.colorPrimaries, v.colorTransfer, v.colorRange], [576, 'bt709', 'bt709', 'bt709', 'tv'])
  const rgb = await playerRgb(out, 0.5, { width: 1280, height: 720 })
  for (const [i, [, want]] of PATCHES.entries()) assert.ok(within(patch(rgb, i), want, 3), `patch ${i}: ${patch(rgb, i)} for ${want}`)
})
// Each source is measured as a player shows it (its own tags): 8-bit BT.601 itself is up to 3 levels off the chart.
test('a stitch of a BT.601 and a BT.709 video comes out one BT.709 file, each within ±3 of its source as shown', async () => {
  const stitch = {
    clips: [{ src: chartVideo(join(dir, 'stitch-601.mp4'), 'bt601') }, { src: chartVideo(join(dir, 'stitch-709.mp4'), 'bt709') }],
    output: { format: 'mp4', quality: 'high', size: { width: 1280, height: 720 }, fps: 25 },
  }
  const out = join(dir, 'stitched.mp4')
  await renderer.render(stitchToEdit(stitch as StitchRequest) as Edit, { out })
  const v = (await probe(out)).streams.find((s) => s.type === 'video')!
  assert.equal([v.colorSpace, v.colorPrimaries, v.colorTransfer, v.colorRange], ['bt709', 'bt709', 'bt709', 'tv'])
  for (const [at, clip] of [
    [0.5, stitch.clips[0]!],
    [1.5, stitch.clips[1]!],
  ] as const) {
    const [got, source] = [await playerRgb(out, at), await playerRgb(clip.src)]
    for (const i of PATCHES.keys()) assert.ok(within(patch(got, i), patch(source, i), 3), `${at} s, patch ${i}: ${patch(got, i)} for ${patch(source, i)}`)
  }
})
test.run()
