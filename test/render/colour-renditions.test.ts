import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { probe } from '../../core/index.js'
import { transcode } from '../../service/sources/rendition-transcode.js'
import { bt2020Chart, chartVideo, HDR_REFERENCE, PATCHES, patch, playerRgb } from '../helpers/colour.js'
import { tempDir } from '../helpers/media.js'

// Hosted sources' renditions re-encode a video rather than draw it, so they take the colour rule on their own
// path: a chart made BT.601 (what SD cameras and old files are) comes out as BT.709 TV range, tagged so, every
// patch within ±3 as a player decodes it; an HLG source is tone-mapped as ffmpeg's own pipeline does it.

const dir = tempDir('reelforge-colour-renditions-')
const ff = (args: string[]) => execFileSync('ffmpeg', ['-v', 'error', '-y', ...args], { maxBuffer: 64 * 1024 ** 2 })
const within = (a: number[], b: number[], tol: number) => a.every((v, c) => Math.abs(v - b[c]!) <= tol)
const size = { width: 1280, height: 720 }
const bt601 = join(dir, 'bt601.mp4')
const bt709 = join(dir, 'bt709.mp4')
const hlg = join(dir, 'hlg.mp4')
const tags = async (path: string) => {
  const v = (await probe(path)).streams.find((s) => s.type === 'video')!
  return [v.colorSpace, v.colorPrimaries, v.colorTransfer, v.colorRange]
}

const test = suite('colour: source renditions')
test.before(() => {
  chartVideo(bt601, 'bt601')
  chartVideo(bt709, 'bt709')
  bt2020Chart(hlg, 'arib-std-b67')
})
for (const format of ['mp4', 'webm', 'mov'] as const) {
  test(`${format} rendition of a BT.601 source: BT.709 TV range, tagged, every patch within ±3`, async () => {
    const out = join(dir, `rendition.${format}`)
    await transcode(bt601, out, { format, size, quality: 100 }, format)
    assert.equal(await tags(out), ['bt709', 'bt709', 'bt709', 'tv'], 'the tags')
    const rgb = await playerRgb(out)
    for (const [i, [, want]] of PATCHES.entries()) assert.ok(within(patch(rgb, i), want, 3), `patch ${i}: ${patch(rgb, i)} for ${want}`)
  })
}
// A still is decoded by image viewers with its own format's rule (JFIF: BT.601, full range), not the video's tags.
// jpg ±3 (4:4:4, careful rounding); webp ±4: libwebp's own 4:2:0 conversion rounds once more.
for (const [format, tol] of [
  ['jpg', 3],
  ['webp', 4],
  ['png', 3],
] as const) {
  test(`a ${format} rendition of a BT.709 HD video: every patch within ±${tol} as a viewer decodes it`, async () => {
    const out = join(dir, `still.${format}`)
    await transcode(bt709, out, { format, size, quality: 100 }, format)
    const rgb = ff(['-i', out, '-vf', 'format=rgb24', '-f', 'rawvideo', '-'])
    for (const [i, [, want]] of PATCHES.entries()) assert.ok(within(patch(rgb, i), want, tol), `patch ${i}: ${patch(rgb, i)} for ${want}`)
  })
}
test('an HLG source: the mp4 and the jpg renditions are tone-mapped as the reference pipeline maps it (±4 a patch)', async () => {
  const reference = ff(['-i', hlg, '-frames:v', '1', '-vf', `${HDR_REFERENCE},scale=flags=bicubic,format=rgb24`, '-f', 'rawvideo', '-'])
  const raw = ff(['-i', hlg, '-frames:v', '1', '-vf', 'scale=flags=bicubic,format=rgb24', '-f', 'rawvideo', '-'])
  const mp4 = join(dir, 'hlg-rendition.mp4')
  await transcode(hlg, mp4, { format: 'mp4', size, quality: 100 }, 'mp4')
  assert.equal(await tags(mp4), ['bt709', 'bt709', 'bt709', 'tv'])
  const jpg = join(dir, 'hlg-rendition.jpg')
  await transcode(hlg, jpg, { format: 'jpg', size, quality: 100 }, 'jpg')
  const still = ff(['-i', jpg, '-vf', 'format=rgb24', '-f', 'rawvideo', '-'])
  for (const [name, rgb] of [
    ['mp4', await playerRgb(mp4, 0)],
    ['jpg', still],
  ] as const)
    for (const i of PATCHES.keys()) assert.ok(within(patch(rgb, i), patch(reference, i), 4), `${name} patch ${i}: ${patch(rgb, i)} for ${patch(reference, i)}`)
  // The raw signal is far from the reference: without tone-mapping the loop above fails.
  assert.ok(
    PATCHES.some((_, i) => !within(patch(raw, i), patch(reference, i), 12)),
    'the untouched HLG signal is far from the reference',
  )
})
test.run()
