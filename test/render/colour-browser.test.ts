import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { createRenderer } from '../../index.js'
import { launchBrowser } from '../helpers/browser.js'
import { chartEdit, PATCHES, patch } from '../helpers/colour.js'
import { tempDir } from '../helpers/media.js'

// The colour chart as a viewer sees it: played by Chromium's <video> (the browser the dashboard tests use) and
// screenshot at its natural size. Measured: greys exact, saturated colours within 9 levels (a pure blue's blue 215 for
// 224, in webm and mp4 alike) — Chromium's own software YUV→RGB (no GPU here); ffmpeg decodes the same files within 3
// (colour.test.ts). Before the BT.709 output the red patch came out orange: its green +18 (the issue's 239,50,27).
// Those 9 levels are the browser's, not ours: a reference made by ffmpeg alone from the chart's exact pixels (a PNG
// still, swscale's BT.709 TV-range matrix, the same tags) shows the same, and ours is held within ±4 of it.

const dir = tempDir('reelforge-colour-browser-')

test('in Chromium: the chart rendered to webm and mp4 shows greys exact, colours within 10 levels of the edit and 4 of an ffmpeg-made file', async () => {
  const renderer = createRenderer({ cacheDir: join(dir, 'cache') })
  for (const format of ['webm', 'mp4'] as const) await renderer.render(chartEdit({ format, quality: 'high' }), { out: join(dir, `chart.${format}`) })
  // The reference: the chart's exact sRGB pixels (a PNG still), made into video by ffmpeg itself.
  const still = (await renderer.render(chartEdit({ format: 'png' }), { out: join(dir, 'chart.png') })).path
  const bt709 =
    '-vf scale=out_color_matrix=bt709:out_range=tv:flags=accurate_rnd+full_chroma_int,format=yuv420p -colorspace bt709 -color_primaries bt709 -color_trc bt709 -color_range tv'
  for (const [format, codec] of [
    ['mp4', '-c:v libx264 -crf 4'],
    ['webm', '-c:v libvpx-vp9 -crf 4 -b:v 0'],
  ] as const)
    execFileSync('ffmpeg', `-v error -y -loop 1 -t 1 -r 25 -i ${still} ${bt709} ${codec} ${join(dir, `ref.${format}`)}`.split(' '))
  const server = createServer((req, res) => {
    const format = req.url?.endsWith('.mp4') ? 'mp4' : 'webm'
    const name = req.url?.includes('ref') ? 'ref' : 'chart'
    res.writeHead(200, { 'content-type': `video/${format}` }).end(readFileSync(join(dir, `${name}.${format}`)))
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`
  const browser = await launchBrowser()
  try {
    const page = await browser.newPage({ viewport: { width: 1300, height: 760 }, deviceScaleFactor: 1 })
    // What Chromium shows of a file: its first frame's pixels, after a seek to 0.5 s.
    const shown = async (name: string) => {
      await page.setContent(`<body style="margin:0;background:#000"><video id="v" muted src="${base}/${name}" style="display:block"></video></body>`)
      const playable = await page.evaluate(async () => {
        const v = document.getElementById('v') as HTMLVideoElement
        // The page's load may have waited for the video already.
        if (v.readyState < 2)
          await new Promise((resolve, reject) => ((v.onloadeddata = resolve), (v.onerror = () => reject(new Error(String(v.error?.message))))))
        v.currentTime = 0.5
        await new Promise((resolve) => (v.onseeked = resolve))
        return [v.videoWidth, v.videoHeight]
      })
      assert.equal(playable, [1280, 720], `${name} plays at its size`)
      const png = await page.locator('#v').screenshot()
      return execFileSync('ffmpeg', ['-v', 'error', '-i', '-', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], { input: png, maxBuffer: 64 * 1024 ** 2 })
    }
    for (const format of ['webm', 'mp4'] as const) {
      const rgb = await shown(`chart.${format}`)
      const ref = await shown(`ref.${format}`)
      const red = patch(rgb, 0)
      assert.ok(Math.abs(red[1] - 32) <= 4, `${format}: the red is red, not orange (${red})`)
      for (const [i, [, want]] of PATCHES.entries())
        assert.ok(
          patch(rgb, i).every((v, c) => Math.abs(v - want[c]!) <= (want[0] === want[1] && want[1] === want[2] ? 1 : 10)),
          `${format} patch ${i}: ${patch(rgb, i)} for ${want}`,
        )
      for (const i of PATCHES.keys())
        assert.ok(
          patch(rgb, i).every((v, c) => Math.abs(v - patch(ref, i)[c]!) <= 4),
          `${format} patch ${i}: ours ${patch(rgb, i)}, ffmpeg's reference ${patch(ref, i)} in the same browser`,
        )
    }
  } finally {
    await browser.close()
    server.close()
  }
})
test.run()
