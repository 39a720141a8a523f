import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { toneMapFilters } from '../../core/ffmpeg/tone-map.js'
import { ffmpegArgs } from '../../core/index.js'
import { BT709_TAGS } from '../../plugins/outputs/args.js'
import { createRenderer, type Edit } from '../../index.js'
import { tempDir } from '../helpers/media.js'
import { playerRgb } from '../helpers/colour.js'

// HDR sources (10-bit HEVC, BT.2020, HLG and PQ — what phones record) are tone-mapped to SDR BT.709 before they
// are drawn: a render of one matches ffmpeg's own zscale + tonemap pipeline with the same operator, and does not
// match the picture decoded without tone-mapping (so the test can fail). Their SDR twin still decodes as before.

const dir = tempDir('reelforge-hdr-')
const ff = (args: string[]) => execFileSync('ffmpeg', ['-v', 'error', '-y', ...args], { maxBuffer: 64 * 1024 ** 2 })
const BARS = 'smptehdbars=s=320x180:d=1:r=25' // a still chart: every frame the same

/** The bars as HDR: sRGB → linear → BT.2020 with HLG or PQ (SDR white at 100 cd/m²), 10-bit HEVC, tagged. */
function hdrSource(transfer: 'arib-std-b67' | 'smpte2084'): string {
  const out = join(dir, `${transfer}.mp4`)
  const to = `format=gbrp,zscale=tin=iec61966-2-1:min=gbr:pin=bt709:rin=full:t=${transfer}:p=bt2020:m=bt2020nc:r=tv:npl=100,format=yuv420p10le`
  ff(ffmpegArgs`-f lavfi -i ${BARS} -vf ${to} -c:v libx265 -x265-params log-level=error -color_primaries bt2020 -color_trc ${transfer}
    -colorspace bt2020nc -color_range tv ${out}`)
  return out
}
/** One frame of a file through `filters` as RGB. */
const decode = (path: string, filters: string[]) =>
  ff(['-i', path, '-frames:v', '1', '-vf', [...filters, 'scale=flags=bicubic', 'format=rgb24'].join(','), '-f', 'rawvideo', '-'])
const mad = (a: Buffer, b: Buffer) => a.reduce((s, v, i) => s + Math.abs(v - b[i]!), 0) / a.length

async function rendered(src: string, name: string): Promise<Buffer> {
  const edit = {
    timeline: { tracks: [{ clips: [{ asset: { type: 'video', src }, start: 0, length: 1 }] }] },
    output: { format: 'mp4', quality: 'veryhigh', size: { width: 320, height: 180 }, fps: 25 },
  }
  const out = join(dir, `${name}-rendered.mp4`)
  await createRenderer({ cacheDir: join(dir, 'cache') }).render(edit as Edit, { out })
  return playerRgb(out)
}

const test = suite('colour: HDR sources tone-mapped')
for (const [name, transfer] of [
  ['HLG', 'arib-std-b67'],
  ['PQ (HDR10)', 'smpte2084'],
] as const) {
  test(`${name}: drawn as ffmpeg's zscale + tonemap (mobius) pipeline draws it, not as the raw signal`, async () => {
    const src = hdrSource(transfer)
    const ours = await rendered(src, transfer)
    const reference = decode(src, toneMapFilters(transfer))
    const untouched = decode(src, [])
    // Mean over the whole frame, bar edges included, where 4:2:0 chroma is resampled on both sides: within 5 levels.
    assert.ok(mad(ours, reference) <= 5, `${name}: ${mad(ours, reference).toFixed(2)} levels from the reference`)
    assert.ok(mad(ours, untouched) > 12, `${name}: without tone-mapping it would differ by ${mad(ours, untouched).toFixed(2)} levels`)
  })
}
test('the SDR twin takes no tone-map step and decodes as before (within 5 levels of the bars, edges included)', async () => {
  const sdr = join(dir, 'sdr.mp4')
  ff([...ffmpegArgs`-f lavfi -i ${BARS} -vf scale=out_color_matrix=bt709:out_range=tv,format=yuv420p -c:v libx264 -crf 12`, ...BT709_TAGS, sdr])
  assert.equal(toneMapFilters('bt709'), [])
  const ours = await rendered(sdr, 'sdr-twin')
  const bars = ff(['-f', 'lavfi', '-i', BARS, '-frames:v', '1', '-vf', 'format=rgb24', '-f', 'rawvideo', '-'])
  assert.ok(mad(ours, bars) <= 5, `${mad(ours, bars).toFixed(2)} levels from the bars`)
})
test.run()
