import { statSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { ffmpegArgs, runFfmpeg } from '../../core/index.js'
import { isBlue, pixel } from '../helpers/frames.js'
import { tempDir } from '../helpers/media.js'
import { edit, renderAndDecode } from '../helpers/render.js'
import { LOOPBACK, testService } from '../helpers/service.js'
import { startPythonServer } from '../helpers/python-http.js'
import type { WebHost } from '../helpers/web-hosts.js'

const dir = tempDir()
let python: WebHost
/**
 * Four tracks, each a clip as long as its 2.4 s source (`length: 'auto'`, so the duration says whole files came),
 * from four URLs of the file: four downloads at once leave each one's reader behind its host. One download crashed
 * undici 7 in about 2 renders of 5 here; four crash nearly every render.
 */
const fromPython = () =>
  edit(
    [],
    {},
    {
      tracks: [1, 2, 3, 4].map((n) => ({
        clips: [{ asset: { type: 'video', src: `${python.url}/noise.mp4?copy=${n}` }, start: 0, length: 'auto', fit: 'cover' }],
      })),
    },
  )

const jobs = suite("renders whose video comes from Python's http.server (HTTP/1.0, connection: close)")
jobs.before(async () => {
  // Lossless noise: a real mp4 of a few MB, the size that crashed undici 7 in 7 of 8 CLI runs.
  const video = join(dir, 'noise.mp4')
  await runFfmpeg(
    ffmpegArgs`-v error -y -f lavfi -i ${"nullsrc=s=320x180:r=25:d=2.4,geq=lum='random(1)*255':cb=128:cr=128"} -c:v libx264 -preset ultrafast -qp 0 -pix_fmt yuv420p ${video}`,
  )
  assert.ok(statSync(video).size > 4e6, `${statSync(video).size} bytes`)
  python = await startPythonServer(dir)
})
jobs.after(() => python.close())

jobs('createRenderer: the render completes with the source video for its whole duration', async () => {
  const { frames, result } = await renderAndDecode(fromPython(), { cacheDir: join(dir, 'cache'), network: LOOPBACK })
  assert.is(result.duration, 2.4)
  assert.is(frames.count, 60)
  assert.not.ok(isBlue(pixel(frames, 59, 160, 90)), 'the last frame shows the video, not the background')
})

jobs('the service: a job whose asset comes from the Python server reaches COMPLETE', async () => {
  const svc = await testService({ start: true })
  try {
    const { jobId } = (await svc.call('POST', '/v1/render', { body: fromPython() })).body
    const done = await svc.waitFor(jobId, ['COMPLETE', 'FAILED'], undefined, 120_000)
    assert.is(done.status, 'COMPLETE', done.error)
    assert.is(done.duration, 2.4)
  } finally {
    await svc.close(1000)
  }
})
jobs.run()
