import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createRenderer } from '../../index.js'
import { chartEdit, PATCHES, patch } from '../helpers/colour.js'
import { tempDir } from '../helpers/media.js'

// Stills stay full-range sRGB: a JPEG (the jpg output, a video's poster and thumbnail) is JFIF — BT.601 matrix,
// full range, what every image viewer assumes — and a GIF's palette is built from the sRGB frames. The chart,
// decoded as a viewer decodes each, comes back within a stated tolerance of the edit's colours.

const dir = tempDir('reelforge-colour-stills-')
const renderer = createRenderer({ cacheDir: join(dir, 'cache') })
const within = (a: number[], b: number[], tol: number) => a.every((v, c) => Math.abs(v - b[c]!) <= tol)
/** A still as a viewer shows it (ffmpeg reads JPEG as JFIF: BT.601, full range), on the chart's 1280×720 grid. */
const viewed = (path: string) =>
  execFileSync(
    'ffmpeg',
    ['-v', 'error', '-i', path, '-frames:v', '1', '-vf', 'scale=1280:720:flags=bicubic+accurate_rnd+full_chroma_int,format=rgb24', '-f', 'rawvideo', '-'],
    {
      maxBuffer: 64 * 1024 ** 2,
    },
  )
const chartWithin = (path: string, tol: number) => {
  const rgb = viewed(path)
  for (const [i, [, want]] of PATCHES.entries()) assert.ok(within(patch(rgb, i), want, tol), `${path} patch ${i}: ${patch(rgb, i)} for ${want}`)
}

const test = suite('colour: stills')
test('a jpg output: every patch within ±3 as a JFIF viewer decodes it', async () => {
  await renderer.render(chartEdit({ format: 'jpg' }), { out: join(dir, 'chart.jpg') })
  chartWithin(join(dir, 'chart.jpg'), 3)
})
test("an mp4's poster and half-size thumbnail: every patch within ±3", async () => {
  const result = await renderer.render(chartEdit({ format: 'mp4', poster: { capture: 0.5 }, thumbnail: { capture: 0.5, scale: 0.5 } }), {
    out: join(dir, 'video.mp4'),
  })
  chartWithin(result.poster!, 3)
  chartWithin(result.thumbnail!, 3)
})
test('a gif: every patch within ±2 (eight flat colours fit the 256-colour palette; ±2 for palettegen rounding)', async () => {
  await renderer.render(chartEdit({ format: 'gif', fps: 12 }), { out: join(dir, 'chart.gif') })
  chartWithin(join(dir, 'chart.gif'), 2)
})
test.run()
