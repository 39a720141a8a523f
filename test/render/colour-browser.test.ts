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
// (colour.test.ts). Before the BT.709 output the red patch came out orange: its green +18 (the 239,50,27).

const dir = tempDir('reelforge-colour-browser-')

test('in Chromium: the chart rendered to webm and mp4 shows greys exact and colours within 10 levels of the edit', async () => {
  const renderer = createRenderer({ cacheDir: join(dir, 'cache') })
  for (const format of ['webm', 'mp4'] as const) await renderer.render(chartEdit({ format, quality: 'high' }), { out: join(dir, `chart.${format}`) })
  const server = createServer((req, res) => {
    const format = req.url?.endsWith('.mp4') ? 'mp4' : 'webm'
    res.writeHead(200, { 'content-type': `video/${format}` }).end(readFileSync(join(dir, `chart.${format}`)))
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`
  const browser = await launchBrowser()
  try {
    const page = await browser.newPage({ viewport: { width: 1300, height: 760 }, deviceScaleFactor: 1 })
    for (const format of ['webm', 'mp4'] as const) {
      await page.setContent(`<body style="margin:0;background:#000"><video id="v" muted src="${base}/chart.${format}" style="display:block"></video></body>`)
      const playable = await page.evaluate(async () => {
        const v = document.getElementById('v') as HTMLVideoElement
        // The page's load may have waited for the video already.
        if (v.readyState < 2)
          await new Promise((resolve, reject) => ((v.onloadeddata = resolve), (v.onerror = () => reject(new Error(String(v.error?.message))))))
        v.currentTime = 0.5
        await new Promise((resolve) => (v.onseeked = resolve))
        return [v.videoWidth, v.videoHeight]
      })
      assert.equal(playable, [1280, 720], `${format} plays at its size`)
      const png = await page.locator('#v').screenshot()
      const rgb = execFileSync('ffmpeg', ['-v', 'error', '-i', '-', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], { input: png, maxBuffer: 64 * 1024 ** 2 })
      const red = patch(rgb, 0)
      assert.ok(Math.abs(red[1] - 32) <= 4, `${format}: the red is red, not orange (${red})`)
      for (const [i, [, want]] of PATCHES.entries())
        assert.ok(
          patch(rgb, i).every((v, c) => Math.abs(v - want[c]!) <= (want[0] === want[1] && want[1] === want[2] ? 1 : 10)),
          `${format} patch ${i}: ${patch(rgb, i)} for ${want}`,
        )
    }
  } finally {
    await browser.close()
    server.close()
  }
})
test.run()
