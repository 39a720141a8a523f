import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { toneMapFilters } from '../../core/ffmpeg/tone-map.js'
import { ffmpegArgs } from '../../core/index.js'
import { createRenderer, type Edit } from '../../index.js'
import { bt2020Chart, chartVideo, HDR_REFERENCE, PATCHES, patch, playerRgb } from '../helpers/colour.js'
import { tempDir } from '../helpers/media.js'

// HDR sources (10-bit HEVC, BT.2020, HLG and PQ — what phones record) are tone-mapped to SDR BT.709 before they
// are drawn: every patch of a chart matches ffmpeg's own zscale + tonemap pipeline with the documented operator
// (written out in HDR_REFERENCE, not taken from the code under test), and the raw signal does not (so the test
// can fail). SDR with BT.2020 primaries is moved to BT.709's primaries; BT.709 sources take no step at all.

const dir = tempDir('reelforge-hdr-')
const ff = (args: string[]) => execFileSync('ffmpeg', ['-v', 'error', '-y', ...args], { maxBuffer: 64 * 1024 ** 2 })
const within = (a: number[], b: number[], tol: number) => a.every((v, c) => Math.abs(v - b[c]!) <= tol)
/** Frame 0 of a file through `filters` as RGB. */
const decode = (path: string, filters: string[]) =>
  ff(['-i', path, '-frames:v', '1', '-vf', [...filters, 'scale=flags=bicubic', 'format=rgb24'].join(','), '-f', 'rawvideo', '-'])

async function rendered(src: string, name: string): Promise<Buffer> {
  const edit = {
    timeline: { tracks: [{ clips: [{ asset: { type: 'video', src }, start: 0, length: 1 }] }] },
    output: { format: 'mp4', quality: 'veryhigh', size: { width: 1280, height: 720 }, fps: 25 },
  }
  const out = join(dir, `${name}-rendered.mp4`)
  await createRenderer({ cacheDir: join(dir, 'cache') }).render(edit as Edit, { out })
  return playerRgb(out, 0.5)
}

const test = suite('colour: HDR sources tone-mapped')
for (const [name, transfer] of [
  ['HLG', 'arib-std-b67'],
  ['PQ (HDR10)', 'smpte2084'],
] as const) {
  test(`${name}: every patch within ±4 of ffmpeg's zscale + tonemap (mobius) reference, not as the raw signal`, async () => {
    const src = bt2020Chart(join(dir, `${transfer}.mp4`), transfer)
    const ours = await rendered(src, transfer)
    const reference = decode(src, [HDR_REFERENCE])
    const untouched = decode(src, [])
    // ±4: the render adds one more 8-bit YUV encode and decode after the reference's own.
    for (const i of PATCHES.keys()) assert.ok(within(patch(ours, i), patch(reference, i), 4), `patch ${i}: ${patch(ours, i)} for ${patch(reference, i)}`)
    assert.ok(
      PATCHES.some((_, i) => !within(patch(untouched, i), patch(reference, i), 12)),
      `${name}: the raw signal is far from the reference somewhere`,
    )
  })
}
test('SDR with BT.2020 primaries (bt2020-10): moved to BT.709 primaries, every patch within ±4 of the chart', async () => {
  const src = bt2020Chart(join(dir, 'sdr2020.mp4'), 'bt2020-10')
  const ours = await rendered(src, 'sdr2020')
  for (const [i, [, want]] of PATCHES.entries()) assert.ok(within(patch(ours, i), want, 4), `patch ${i}: ${patch(ours, i)} for ${want}`)
  // BT.2020 values read as BT.709 primaries: washed out, tens of levels off on the saturated patches.
  const raw = decode(src, [])
  assert.ok(
    PATCHES.some(([, want], i) => !within(patch(raw, i), want, 12)),
    'without the primaries step the chart is far off',
  )
})
test("a BT.2020 file missing a tag still renders: no matrix tag → BT.2020's own; no transfer tag → no step", async () => {
  const src = join(dir, 'untagged-matrix.mp4')
  ff(
    ffmpegArgs`-f lavfi -i testsrc2=s=64x36:d=0.2 -pix_fmt yuv420p10le -c:v libx265 -x265-params log-level=error -color_primaries bt2020 -color_trc bt2020-10 ${src}`,
  )
  const edit = {
    timeline: { tracks: [{ clips: [{ asset: { type: 'video', src }, start: 0, length: 0.2 }] }] },
    output: { format: 'png', size: { width: 64, height: 36 } },
  }
  await createRenderer({ cacheDir: join(dir, 'cache') }).render(edit as Edit, { out: join(dir, 'untagged-matrix.png') })
  assert.equal(toneMapFilters(undefined, 'bt2020'), [], 'zscale cannot undo an unnamed transfer: left as it is')
})
// ±4 here and above: two 8-bit YUV generations (the source's and the render's), and the decoder's fast swscale path.
test('a BT.709 source takes no tone-map step and decodes as before (every patch within ±4 of the chart)', async () => {
  const sdr = chartVideo(join(dir, 'sdr.mp4'), 'bt709')
  assert.equal(toneMapFilters('bt709', 'bt709'), [])
  const ours = await rendered(sdr, 'sdr-twin')
  for (const [i, [, want]] of PATCHES.entries()) assert.ok(within(patch(ours, i), want, 4), `patch ${i}: ${patch(ours, i)} for ${want}`)
})
test.run()
