import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createRenderer, type Edit } from '../../index.js'
import { chartEdit, PATCHES, patch } from '../helpers/colour.js'
import { tempDir } from '../helpers/media.js'

// The input side stays right: a chart encoded as BT.709, BT.601 and full-range video (tagged as each is), drawn
// full-frame by the renderer, comes out as the chart's colours (±3 levels per channel).

const dir = tempDir('reelforge-colour-in-')
const renderer = createRenderer({ cacheDir: join(dir, 'cache') })
const ff = (args: string[]) => execFileSync('ffmpeg', ['-v', 'error', '-y', ...args], { maxBuffer: 64 * 1024 ** 2 })

const test = suite('colour: tagged sources decode to their RGB')
test.before(async () => {
  // The chart as a lossless RGB picture: the source every encoding below is made from.
  await renderer.render(chartEdit({ format: 'png' }), { out: join(dir, 'chart.png') })
})
for (const [name, matrix, range, tag, pixFmt] of [
  ['BT.709 TV range', 'bt709', 'tv', ['-colorspace', 'bt709', '-color_primaries', 'bt709', '-color_trc', 'bt709', '-color_range', 'tv'], 'yuv420p'],
  ['BT.601 TV range', 'bt601', 'tv', ['-colorspace', 'smpte170m', '-color_primaries', 'smpte170m', '-color_trc', 'smpte170m', '-color_range', 'tv'], 'yuv420p'],
  ['BT.709 full range', 'bt709', 'pc', ['-colorspace', 'bt709', '-color_primaries', 'bt709', '-color_trc', 'bt709', '-color_range', 'pc'], 'yuvj420p'],
] as const) {
  test(`${name} source: every patch within ±3 of the chart`, async () => {
    const src = join(dir, `${matrix}-${range}.mp4`)
    const vf = `scale=out_color_matrix=${matrix}:out_range=${range},format=${pixFmt}`
    ff(['-loop', '1', '-i', join(dir, 'chart.png'), '-t', '1', '-r', '25', '-vf', vf, '-c:v', 'libx264', '-crf', '10', ...tag, src])
    // Drawn to a PNG (lossless RGB): what is measured is the source's decoding, not a second encode.
    const edit = {
      timeline: { tracks: [{ clips: [{ asset: { type: 'video', src }, start: 0, length: 1 }] }] },
      output: { format: 'png', size: { width: 1280, height: 720 }, range: { start: 0.5 } },
    }
    const out = join(dir, `${matrix}-${range}-drawn.png`)
    await renderer.render(edit as Edit, { out })
    const rgb = ff(['-i', out, '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'])
    for (const [i, [, want]] of PATCHES.entries())
      assert.ok(
        patch(rgb, i).every((v, c) => Math.abs(v - want[c]!) <= 3),
        `patch ${i}: ${patch(rgb, i)} for ${want}`,
      )
  })
}
test.run()
